import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ApiSuccess, StoryData, StoryListItem } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

/** `POST /api/user/public/{id}`: publish, or update the public version (snapshot into slot -1). */
export async function publishStory(id: string): Promise<StoryListItem> {
  const response = await apiClient.post<ApiSuccess<StoryListItem>>(`/user/public/${encodeURIComponent(id)}`);
  return response.data;
}

/**
 * After publishing or making private: the open story takes its new visibility from the answer (its
 * text, which may be long, is not read again); the lists and the story's check are read again.
 */
export function visibilityChanged(queryClient: QueryClient, id: string, item: StoryListItem): Promise<unknown> {
  queryClient.setQueryData<StoryData>(storyKeys.detail(id), (old) => (old ? { ...old, permission: item.permission } : old));
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: storyKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: storyKeys.check(id) }),
  ]);
}

export function usePublishStory(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => publishStory(id),
    onSuccess: (item) => visibilityChanged(queryClient, id, item),
  });
}
