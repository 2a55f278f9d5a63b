import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoreBookData, UpdateLoreSettingsDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { lorePath, useStoreLore } from './lore-keys';

/** `PUT /api/lore/{storyId}/settings`: scan depth, token budget, recursion depth. */
export async function updateLoreSettings(storyId: string, change: Omit<UpdateLoreSettingsDto, 'language'>): Promise<LoreBookData> {
  return (await apiClient.put<ApiSuccess<LoreBookData>>(`${lorePath(storyId)}/settings`, change)).data;
}

export function useUpdateLoreSettings(storyId: string) {
  const store = useStoreLore(storyId);
  return useMutation({ mutationFn: (change: Omit<UpdateLoreSettingsDto, 'language'>) => updateLoreSettings(storyId, change), onSuccess: store });
}
