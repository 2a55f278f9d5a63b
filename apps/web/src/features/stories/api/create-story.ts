import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, CreateStoryDto, StoryIdData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

export type CreateStoryBody = Omit<CreateStoryDto, 'language'>;

/** `POST /api/llm`: a new story; answers its id. */
export async function createStory(body: CreateStoryBody): Promise<StoryIdData> {
  const response = await apiClient.post<ApiSuccess<StoryIdData>>('/llm', body);
  return response.data;
}

export function useCreateStory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStory,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storyKeys.lists() }),
  });
}
