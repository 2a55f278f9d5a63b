import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, BranchesData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { branchKeys } from './branch-keys';

/** `GET /api/llm/{id}/branches`: the lines of a story, the played one marked `current`. */
export async function getBranches(storyId: string): Promise<BranchesData> {
  return (await apiClient.get<ApiSuccess<BranchesData>>(`/llm/${encodeURIComponent(storyId)}/branches`)).data;
}

export const branchesQueryOptions = (storyId: string) =>
  queryOptions({ queryKey: branchKeys.list(storyId), queryFn: () => getBranches(storyId) });

export function useBranches(storyId: string, enabled = true) {
  return useQuery({ ...branchesQueryOptions(storyId), enabled });
}
