import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, ArchiveEntry } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { archiveKeys } from './archive-keys';

/** `GET /api/archive/{storyId}`: the occupied slots (and the public archive -1). */
export async function getArchives(storyId: string): Promise<ArchiveEntry[]> {
  const response = await apiClient.get<ApiSuccess<ArchiveEntry[]>>(`/archive/${encodeURIComponent(storyId)}`);
  return response.data;
}

export const archivesQueryOptions = (storyId: string) =>
  queryOptions({ queryKey: archiveKeys.list(storyId), queryFn: () => getArchives(storyId) });

export function useArchives(storyId: string, enabled: boolean) {
  return useQuery({ ...archivesQueryOptions(storyId), enabled });
}
