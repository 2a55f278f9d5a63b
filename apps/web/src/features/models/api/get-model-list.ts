import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, ModelListEntry } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { modelKeys } from './model-keys';

/** `GET /api/model_list`: the platform models with their measured status. */
export async function getModelList(): Promise<ModelListEntry[]> {
  return (await apiClient.get<ApiSuccess<ModelListEntry[]>>('/model_list')).data;
}

export const modelListQueryOptions = () =>
  queryOptions({ queryKey: modelKeys.list, queryFn: getModelList, staleTime: 60_000 });

export function useModelList() {
  return useQuery(modelListQueryOptions());
}
