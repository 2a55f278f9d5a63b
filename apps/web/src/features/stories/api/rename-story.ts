import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, StoryListItem } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

/** `PATCH /api/user/story`: rename my story (an empty name makes it untitled). */
export async function renameStory(id: string, storyName: string): Promise<StoryListItem> {
  const response = await apiClient.patch<ApiSuccess<StoryListItem>>('/user/story', { id, storyName });
  return response.data;
}

export function useRenameStory(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (storyName: string) => renameStory(id, storyName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storyKeys.all }),
  });
}
