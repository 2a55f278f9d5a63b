import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, StoryListItem } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { visibilityChanged } from './publish-story';

/** `POST /api/user/private/{id}`: make my story private; it leaves the square and links stop working. */
export async function unpublishStory(id: string): Promise<StoryListItem> {
  const response = await apiClient.post<ApiSuccess<StoryListItem>>(`/user/private/${encodeURIComponent(id)}`);
  return response.data;
}

export function useUnpublishStory(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unpublishStory(id),
    onSuccess: (item) => visibilityChanged(queryClient, id, item),
  });
}
