import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, StoryData, UpdateStoryDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

/** `PATCH /api/llm?id=`: text, play mode, model, settings or name of my story. */
export async function updateStory(id: string, body: Omit<UpdateStoryDto, 'language'>): Promise<StoryData> {
  const response = await apiClient.patch<ApiSuccess<StoryData>>('/llm', body, { query: { id } });
  return response.data;
}

export function useUpdateStory(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<UpdateStoryDto, 'language'>) => updateStory(id, body),
    onSuccess: (story) => {
      queryClient.setQueryData(storyKeys.detail(id), story);
      return queryClient.invalidateQueries({ queryKey: storyKeys.lists() });
    },
  });
}
