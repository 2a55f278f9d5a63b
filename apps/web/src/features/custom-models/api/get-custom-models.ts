import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, CustomModelView } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { customModelKeys } from './custom-model-keys';

/** `GET /api/custom-models`: my own models (the key only as a masked tail). */
export async function getCustomModels(): Promise<CustomModelView[]> {
  return (await apiClient.get<ApiSuccess<CustomModelView[]>>('/custom-models')).data;
}

export const customModelsQueryOptions = () =>
  queryOptions({ queryKey: customModelKeys.list(), queryFn: getCustomModels, staleTime: 30_000 });

export function useCustomModels(enabled = true) {
  return useQuery({ ...customModelsQueryOptions(), enabled });
}
