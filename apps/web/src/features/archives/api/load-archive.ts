import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, LoadArchiveData, LoadArchiveDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

/** `POST /api/archive/load`: the story goes back to the archive's state. */
export async function loadArchive(body: Omit<LoadArchiveDto, 'language'>): Promise<LoadArchiveData> {
  const response = await apiClient.post<ApiSuccess<LoadArchiveData>>('/archive/load', body);
  return response.data;
}

// The story's own queries belong to the stories feature: every cached query about this story id
// (its record, its list entry) is refreshed by matching the id anywhere in the key.
export function useLoadArchive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loadArchive,
    onSuccess: ({ story_id }) =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey.includes(story_id) || query.queryKey[1] === 'list' }),
  });
}
