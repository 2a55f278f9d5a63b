import { queryOptions, useQuery } from '@tanstack/react-query';
import { PICTURE_POLL_MS, type ApiSuccess, type PicturesData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { pictureKeys } from './picture-keys';

const NONE: PicturesData = { pictures: [], generator: { available: false, demo: false, points: 0 } };

/** `GET /api/llm/{id}/pictures`: the story's pictures and what the server draws with. */
export async function getPictures(id: string): Promise<PicturesData> {
  const data = (await apiClient.get<ApiSuccess<Partial<PicturesData>>>(`/llm/${encodeURIComponent(id)}/pictures`)).data;
  return { pictures: Array.isArray(data?.pictures) ? data.pictures : [], generator: data?.generator ?? NONE.generator };
}

export const picturesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: pictureKeys.ofStory(id),
    queryFn: () => getPictures(id),
    // Asked again while a picture is being drawn, until none is.
    refetchInterval: (query) => (query.state.data?.pictures.some((p) => p.status === 'pending') ? PICTURE_POLL_MS : false),
  });

export function usePictures(id: string) {
  return useQuery(picturesQueryOptions(id));
}
