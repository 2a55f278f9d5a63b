import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BranchesData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { branchKeys } from './branch-keys';

/** `DELETE /api/llm/{id}/branches/{branchId}`: delete a branch that is not being played. */
export async function deleteBranch(storyId: string, branchId: string): Promise<BranchesData> {
  const path = `/llm/${encodeURIComponent(storyId)}/branches/${encodeURIComponent(branchId)}`;
  return (await apiClient.delete<ApiSuccess<BranchesData>>(path)).data;
}

export function useDeleteBranch(storyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (branchId: string) => deleteBranch(storyId, branchId),
    onSuccess: (list) => queryClient.setQueryData(branchKeys.list(storyId), list),
  });
}
