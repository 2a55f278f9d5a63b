import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoginData, LoginDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { saveSession } from '../../../lib/storage';

/** The username variant of `LoginDto`; the API client adds `language`. */
export type UsernameLoginBody = Required<Pick<LoginDto, 'type' | 'userName' | 'password'>> & Pick<LoginDto, 'inviteCode'>;

export async function login(body: UsernameLoginBody): Promise<LoginData> {
  const response = await apiClient.post<ApiSuccess<LoginData>>('/user/login', body);
  return response.data;
}

/** Logs in (or registers a new name) and stores the token and user info on success. */
export function useLoginMutation() {
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      if (data.token) saveSession(data.token, data.userInfo ?? null);
    },
  });
}
