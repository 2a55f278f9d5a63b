import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, SiteConfigData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

/** `GET /api/site-config`: operator-configured QQ group, Discord link and activity notice. */
export async function getSiteConfig(): Promise<SiteConfigData> {
  const response = await apiClient.get<ApiSuccess<SiteConfigData>>('/site-config');
  return response.data;
}

export const siteConfigQueryOptions = () =>
  queryOptions({ queryKey: ['site-config'], queryFn: getSiteConfig, staleTime: 10 * 60_000 });

export function useSiteConfig() {
  return useQuery(siteConfigQueryOptions());
}
