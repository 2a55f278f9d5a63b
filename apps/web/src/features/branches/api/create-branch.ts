import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BranchSwitchData, CreateBranchDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { played } from './played';

/** `POST /api/llm/{id}/branches`: branch from here (the new line is played at once). */
export async function createBranch(storyId: string, body: Omit<CreateBranchDto, 'language'>): Promise<BranchSwitchData> {
  return (await apiClient.post<ApiSuccess<BranchSwitchData>>(`/llm/${encodeURIComponent(storyId)}/branches`, body)).data;
}

export function useCreateBranch(storyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<CreateBranchDto, 'language'>) => createBranch(storyId, body),
    onSuccess: (data) => played(queryClient, storyId, data),
  });
}
