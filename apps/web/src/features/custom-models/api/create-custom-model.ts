import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, CreateCustomModelDto, CustomModelView } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { customModelKeys } from './custom-model-keys';

/** `POST /api/custom-models`: add a model of my own. */
export async function createCustomModel(body: Omit<CreateCustomModelDto, 'language'>): Promise<CustomModelView> {
  return (await apiClient.post<ApiSuccess<CustomModelView>>('/custom-models', body)).data;
}

export function useCreateCustomModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCustomModel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customModelKeys.all }),
  });
}
