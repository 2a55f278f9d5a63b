import { useQueryClient } from '@tanstack/react-query';
import type { LoreBookData } from '@taleloom/contracts';

/** Query keys of the lore feature. */
export const loreKeys = {
  all: ['lore'] as const,
  book: (storyId: string) => [...loreKeys.all, 'book', storyId] as const,
  context: (storyId: string) => [...loreKeys.all, 'context', storyId] as const,
};

/** Every change answers the whole lore: it replaces the cache. */
export function useStoreLore(storyId: string) {
  const queryClient = useQueryClient();
  return (book: LoreBookData) => queryClient.setQueryData(loreKeys.book(storyId), book);
}

export const lorePath = (storyId: string) => `/lore/${encodeURIComponent(storyId)}`;
