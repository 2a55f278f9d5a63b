import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorCode, type ApiSuccess, type CheckInData } from '@taleloom/contracts';
import { apiClient, isApiClientError } from '../../../lib/api-client';
import { powerKeys, USER_INFO_QUERY_KEY } from './keys';

export async function checkIn(): Promise<CheckInData> {
  const response = await apiClient.post<ApiSuccess<CheckInData>>('/user/check-in');
  return response.data;
}

/** The daily check-in; afterwards the status, the points record and the balance in the user menu refresh. */
export function useCheckInMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkIn,
    onSettled: async (_data, error) => {
      // Already checked in (another tab) also means the status is stale.
      if (error && !(isApiClientError(error) && error.code === ErrorCode.ALREADY_CHECKED_IN)) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: powerKeys.all }),
        queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY }),
      ]);
    },
  });
}
