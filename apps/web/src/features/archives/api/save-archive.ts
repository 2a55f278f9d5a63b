import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, ArchiveEntry, SaveArchiveDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { archiveKeys } from './archive-keys';

/** `POST /api/archive/save`: the story's current state into a slot 0..998. */
export async function saveArchive(body: Omit<SaveArchiveDto, 'language'>): Promise<ArchiveEntry> {
  const response = await apiClient.post<ApiSuccess<ArchiveEntry>>('/archive/save', body);
  return response.data;
}

export function useSaveArchive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveArchive,
    onSuccess: (_, body) => queryClient.invalidateQueries({ queryKey: archiveKeys.list(body.story_id) }),
  });
}
