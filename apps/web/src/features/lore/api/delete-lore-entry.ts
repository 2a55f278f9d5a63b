import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoreBookData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { lorePath, useStoreLore } from './lore-keys';

/** `DELETE /api/lore/{storyId}/entries/{entryId}`. */
export async function deleteLoreEntry(storyId: string, entryId: string): Promise<LoreBookData> {
  return (await apiClient.delete<ApiSuccess<LoreBookData>>(`${lorePath(storyId)}/entries/${encodeURIComponent(entryId)}`)).data;
}

export function useDeleteLoreEntry(storyId: string) {
  const store = useStoreLore(storyId);
  return useMutation({ mutationFn: (entryId: string) => deleteLoreEntry(storyId, entryId), onSuccess: store });
}
