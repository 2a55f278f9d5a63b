import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, StoryIdData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

/** `POST /api/llm/{id}/clone`: a copy of my own story (used before playing on from a restore point). */
export async function cloneStory(id: string): Promise<StoryIdData> {
  const response = await apiClient.post<ApiSuccess<StoryIdData>>(`/llm/${encodeURIComponent(id)}/clone`);
  return response.data;
}

export function useCloneStory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cloneStory,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storyKeys.lists() }),
  });
}
