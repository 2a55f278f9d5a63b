import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, UserInfo } from '@taleloom/contracts';
import { apiClient, isApiClientError } from '../../../lib/api-client';
import { saveUserInfo } from '../../../lib/storage';

export async function getUserInfo(): Promise<UserInfo> {
  const response = await apiClient.get<ApiSuccess<UserInfo>>('/user/user-info');
  // The stored copy feeds the session store, so every screen sees the fresh points.
  saveUserInfo(response.data);
  return response.data;
}

export const userInfoQueryOptions = (token: string | null) =>
  queryOptions({
    queryKey: ['user-info', token],
    queryFn: getUserInfo,
    enabled: Boolean(token),
    staleTime: 60_000,
    // A 401 has already logged the user out; retrying it is pointless.
    retry: (failureCount, error) => !(isApiClientError(error) && error.status === 401) && failureCount < 1,
  });

export function useUserInfoQuery(token: string | null) {
  return useQuery(userInfoQueryOptions(token));
}
