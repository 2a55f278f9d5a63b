import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, BindMobileDto, UserInfo } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { saveUserInfo } from '../../../lib/storage';

export async function bindMobile(body: Omit<BindMobileDto, 'language'>): Promise<UserInfo> {
  const response = await apiClient.post<ApiSuccess<UserInfo>>('/user/bind-mobile', body);
  return response.data;
}

/** Binds the phone, then shows the new balance everywhere. */
export function useBindMobileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bindMobile,
    onSuccess: (userInfo) => {
      saveUserInfo(userInfo);
      void queryClient.invalidateQueries({ queryKey: ['user-info'] });
    },
  });
}
