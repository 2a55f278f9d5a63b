import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, CustomModelView } from '@taleloom/contracts';
import { ApiClientError, apiClient, CLIENT_ERROR_CODES } from '../../../lib/api-client';
import { customModelKeys } from './custom-model-keys';

/** `GET /api/custom-models`: my own models (the key only as a masked tail). */
export async function getCustomModels(): Promise<CustomModelView[]> {
  const { data } = await apiClient.get<ApiSuccess<CustomModelView[]>>('/custom-models');
  // Anything but a list (an old server, a proxy page) is a failure to get, not a crash of the play screen.
  if (!Array.isArray(data)) throw new ApiClientError(200, CLIENT_ERROR_CODES.badResponse, 'not a list');
  return data;
}

export const customModelsQueryOptions = () =>
  queryOptions({ queryKey: customModelKeys.list(), queryFn: getCustomModels, staleTime: 30_000 });

export function useCustomModels(enabled = true) {
  return useQuery({ ...customModelsQueryOptions(), enabled });
}
