import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InviteCodeAnswer } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

export async function getInviteCode(): Promise<string> {
  const response = await apiClient.post<InviteCodeAnswer>('/user/invite-code', {});
  return response.short;
}

export const inviteCodeQueryOptions = (userID: string | undefined) =>
  queryOptions({ queryKey: ['invite-code', userID], queryFn: getInviteCode, enabled: Boolean(userID), staleTime: Infinity });

export function useInviteCodeQuery(userID: string | undefined) {
  return useQuery(inviteCodeQueryOptions(userID));
}
