import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BranchesData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { branchKeys } from './branch-keys';

/** `PATCH /api/llm/{id}/branches/{branchId}`: rename a branch (empty: its default name). */
export async function renameBranch(storyId: string, branchId: string, name: string): Promise<BranchesData> {
  const path = `/llm/${encodeURIComponent(storyId)}/branches/${encodeURIComponent(branchId)}`;
  return (await apiClient.patch<ApiSuccess<BranchesData>>(path, { name })).data;
}

export function useRenameBranch(storyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ branchId, name }: { branchId: string; name: string }) => renameBranch(storyId, branchId, name),
    onSuccess: (list) => queryClient.setQueryData(branchKeys.list(storyId), list),
  });
}
