import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { POINTS_PAGE_SIZE, type ApiSuccess, type PointsPage, type PointsRecordType } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { powerKeys } from './keys';

export interface UserPointsParams {
  type: PointsRecordType;
  page: number;
  pageSize?: number;
}

export async function getUserPoints({ type, page, pageSize = POINTS_PAGE_SIZE }: UserPointsParams): Promise<PointsPage> {
  const response = await apiClient.get<ApiSuccess<PointsPage>>('/user/user-points', { query: { page, type, pageSize } });
  return response.data;
}

export const userPointsQueryOptions = (params: UserPointsParams) =>
  queryOptions({
    queryKey: powerKeys.userPoints(params.type, params.page, params.pageSize ?? POINTS_PAGE_SIZE),
    queryFn: () => getUserPoints(params),
    placeholderData: keepPreviousData,
  });

/** One page of the signed-in user's income or expense. */
export function useUserPointsQuery(params: UserPointsParams, enabled = true) {
  return useQuery({ ...userPointsQueryOptions(params), enabled });
}
