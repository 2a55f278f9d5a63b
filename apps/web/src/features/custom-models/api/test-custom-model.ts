import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, CustomModelTestData, TestCustomModelDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

/** `POST /api/custom-models/test`: a one-token request through the server; errors say what went wrong. */
export async function testCustomModel(body: Omit<TestCustomModelDto, 'language'>): Promise<CustomModelTestData> {
  return (await apiClient.post<ApiSuccess<CustomModelTestData>>('/custom-models/test', body)).data;
}

export function useTestCustomModel() {
  return useMutation({ mutationFn: testCustomModel });
}
