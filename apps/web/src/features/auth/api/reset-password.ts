import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoginData, ResetPasswordDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { saveSession } from '../../../lib/storage';

export async function resetPassword(body: Omit<ResetPasswordDto, 'language'>): Promise<LoginData> {
  const response = await apiClient.post<ApiSuccess<LoginData>>('/user/reset-password', body);
  return response.data;
}

/** Every older token stops working: keep the fresh one the answer carries. */
export function useResetPasswordMutation() {
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: (data) => {
      if (data.token) saveSession(data.token, data.userInfo);
    },
  });
}
