import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess, CustomModelView, UpdateCustomModelDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { customModelKeys } from './custom-model-keys';

/** `PUT /api/custom-models/{name}`: change a model; an empty key keeps the stored one. */
export async function updateCustomModel(name: string, body: Omit<UpdateCustomModelDto, 'language'>): Promise<CustomModelView> {
  return (await apiClient.put<ApiSuccess<CustomModelView>>(`/custom-models/${encodeURIComponent(name)}`, body)).data;
}

export function useUpdateCustomModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, body }: { name: string; body: Omit<UpdateCustomModelDto, 'language'> }) => updateCustomModel(name, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customModelKeys.all }),
  });
}
