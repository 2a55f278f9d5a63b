import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoreBookData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { lorePath, useStoreLore } from './lore-keys';

/** `POST /api/lore/{storyId}/entries/{entryId}/duplicate`: a copy right after it. */
export async function duplicateLoreEntry(storyId: string, entryId: string): Promise<LoreBookData> {
  return (await apiClient.post<ApiSuccess<LoreBookData>>(`${lorePath(storyId)}/entries/${encodeURIComponent(entryId)}/duplicate`)).data;
}

export function useDuplicateLoreEntry(storyId: string) {
  const store = useStoreLore(storyId);
  return useMutation({ mutationFn: (entryId: string) => duplicateLoreEntry(storyId, entryId), onSuccess: store });
}
