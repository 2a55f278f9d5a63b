import { queryOptions, useQuery } from '@tanstack/react-query';
import { CAPTCHA_REFRESH_SECONDS, type ApiSuccess, type CaptchaChallenge } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

export async function getCaptcha(): Promise<CaptchaChallenge> {
  const response = await apiClient.get<ApiSuccess<CaptchaChallenge>>('/captcha');
  return response.data;
}

/** A fresh challenge every 60 s (and after each use: an image can be tried once). */
export const captchaQueryOptions = () =>
  queryOptions({
    queryKey: ['captcha'],
    queryFn: getCaptcha,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: CAPTCHA_REFRESH_SECONDS * 1000,
    refetchOnWindowFocus: false,
  });

export function useCaptchaQuery() {
  return useQuery(captchaQueryOptions());
}
