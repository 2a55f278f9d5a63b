import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, StoryListItem } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

/** `POST /api/user/public/{id}`: publish, or update the public version (snapshot into slot -1). */
export async function publishStory(id: string): Promise<StoryListItem> {
  const response = await apiClient.post<ApiSuccess<StoryListItem>>(`/user/public/${encodeURIComponent(id)}`);
  return response.data;
}

export function usePublishStory(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => publishStory(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storyKeys.all }),
  });
}
