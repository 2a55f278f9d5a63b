import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiSuccess } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { customModelKeys } from './custom-model-keys';

/** `DELETE /api/custom-models/{name}`: stories that chose it go back to the platform default. */
export async function deleteCustomModel(name: string): Promise<{ model_name: string }> {
  return (await apiClient.delete<ApiSuccess<{ model_name: string }>>(`/custom-models/${encodeURIComponent(name)}`)).data;
}

export function useDeleteCustomModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCustomModel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customModelKeys.all }),
  });
}
