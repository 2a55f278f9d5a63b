import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoreBookData, UpdateLoreEntryDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { lorePath, useStoreLore } from './lore-keys';

/** `PATCH /api/lore/{storyId}/entries/{entryId}`: the fields sent change. */
export async function updateLoreEntry(storyId: string, entryId: string, change: Omit<UpdateLoreEntryDto, 'language'>): Promise<LoreBookData> {
  return (await apiClient.patch<ApiSuccess<LoreBookData>>(`${lorePath(storyId)}/entries/${encodeURIComponent(entryId)}`, change)).data;
}

export function useUpdateLoreEntry(storyId: string) {
  const store = useStoreLore(storyId);
  return useMutation({
    mutationFn: ({ entryId, change }: { entryId: string; change: Omit<UpdateLoreEntryDto, 'language'> }) => updateLoreEntry(storyId, entryId, change),
    onSuccess: store,
  });
}
