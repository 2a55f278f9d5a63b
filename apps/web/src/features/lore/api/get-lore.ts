import { useQuery } from '@tanstack/react-query';
import type { ApiSuccess, LoreBookData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { loreKeys, lorePath } from './lore-keys';

/** `GET /api/lore/{storyId}`: the story's lore entries and settings. */
export async function getLore(storyId: string): Promise<LoreBookData> {
  return (await apiClient.get<ApiSuccess<LoreBookData>>(lorePath(storyId))).data;
}

export function useLore(storyId: string, enabled = true) {
  return useQuery({ queryKey: loreKeys.book(storyId), queryFn: () => getLore(storyId), enabled });
}
