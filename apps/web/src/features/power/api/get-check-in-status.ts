import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, CheckInStatusData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { powerKeys } from './keys';

export async function getCheckInStatus(): Promise<CheckInStatusData> {
  const response = await apiClient.get<ApiSuccess<CheckInStatusData>>('/user/check-in-status');
  return response.data;
}

export const checkInStatusQueryOptions = () =>
  queryOptions({ queryKey: powerKeys.checkInStatus(), queryFn: getCheckInStatus, staleTime: 60_000 });

/** Whether the signed-in user has checked in today. */
export function useCheckInStatusQuery(enabled = true) {
  return useQuery({ ...checkInStatusQueryOptions(), enabled });
}
