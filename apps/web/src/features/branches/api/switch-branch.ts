import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BranchSwitchData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { played } from './played';

/** `POST /api/llm/{id}/branches/{branchId}/play`: play another branch of the story. */
export async function switchBranch(storyId: string, branchId: string): Promise<BranchSwitchData> {
  const path = `/llm/${encodeURIComponent(storyId)}/branches/${encodeURIComponent(branchId)}/play`;
  return (await apiClient.post<ApiSuccess<BranchSwitchData>>(path)).data;
}

export function useSwitchBranch(storyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (branchId: string) => switchBranch(storyId, branchId),
    onSuccess: (data) => played(queryClient, storyId, data),
  });
}
