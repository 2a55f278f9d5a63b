import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, RequestPictureDto, StoryPicture } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { pictureKeys } from './picture-keys';

/** `POST /api/llm/{id}/pictures`: illustrate the passage from..to (or redraw its picture). */
export async function requestPicture(id: string, body: Omit<RequestPictureDto, 'language'>): Promise<StoryPicture> {
  return (await apiClient.post<ApiSuccess<StoryPicture>>(`/llm/${encodeURIComponent(id)}/pictures`, body)).data;
}

/** `POST /api/llm/{id}/pictures/{pictureId}/retry`: draw a picture again. */
export async function retryPicture(id: string, pictureId: string): Promise<StoryPicture> {
  return (await apiClient.post<ApiSuccess<StoryPicture>>(`/llm/${encodeURIComponent(id)}/pictures/${encodeURIComponent(pictureId)}/retry`)).data;
}

/** Both ask for a drawing; the pictures list is fetched again (and polled while it is drawn). */
export function useDrawPicture(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { range: { from: number; to: number } } | { pictureId: string }) =>
      'pictureId' in target ? retryPicture(id, target.pictureId) : requestPicture(id, target.range),
    onSettled: () => queryClient.invalidateQueries({ queryKey: pictureKeys.ofStory(id) }),
  });
}
