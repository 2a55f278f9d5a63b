import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, ClonePublicStoryDto, StoryIdData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

/** `POST /api/user/clone-public-story`: my own copy of someone's public story. */
export async function clonePublicStory(body: Omit<ClonePublicStoryDto, 'language'>): Promise<StoryIdData> {
  const response = await apiClient.post<ApiSuccess<StoryIdData>>('/user/clone-public-story', body);
  return response.data;
}

export function useClonePublicStory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clonePublicStory,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storyKeys.lists() }),
  });
}
