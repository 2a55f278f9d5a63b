import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, CreateLoreEntryDto, LoreBookData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { lorePath, useStoreLore } from './lore-keys';

/** `POST /api/lore/{storyId}/entries`: a new entry. */
export async function createLoreEntry(storyId: string, entry: Omit<CreateLoreEntryDto, 'language'>): Promise<LoreBookData> {
  return (await apiClient.post<ApiSuccess<LoreBookData>>(`${lorePath(storyId)}/entries`, entry)).data;
}

export function useCreateLoreEntry(storyId: string) {
  const store = useStoreLore(storyId);
  return useMutation({ mutationFn: (entry: Omit<CreateLoreEntryDto, 'language'>) => createLoreEntry(storyId, entry), onSuccess: store });
}
