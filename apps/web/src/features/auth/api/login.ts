import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoginData, LoginDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { saveSession } from '../../../lib/storage';

/** The username variant of `LoginDto`; the API client adds `language`. */
export type UsernameLoginBody = Required<Pick<LoginDto, 'type' | 'userName' | 'password'>> & Pick<LoginDto, 'inviteCode'>;
/** The phone variant of `LoginDto`. */
export type PhoneLoginBody = Required<Pick<LoginDto, 'type' | 'phoneNum' | 'verifyCode' | 'countryCode'>> &
  Pick<LoginDto, 'inviteCode'>;

export async function login(body: UsernameLoginBody | PhoneLoginBody): Promise<LoginData> {
  const response = await apiClient.post<ApiSuccess<LoginData>>('/user/login', body);
  return response.data;
}

/** True when the answer carries two identities and the user must choose one. */
export const needsChoice = (data: LoginData) => Boolean(data.token && data.phoneToken);

/** Logs in (or registers) and stores the token and user info on success, unless a choice is pending. */
export function useLoginMutation() {
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      if (data.token && !needsChoice(data)) saveSession(data.token, data.userInfo ?? null);
    },
  });
}
