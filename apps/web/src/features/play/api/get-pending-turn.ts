import type { ApiSuccess, PendingTurnData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

/** `GET /api/llm/{id}/pending`: the unaccepted turn the server keeps (also while it generates). */
export async function getPendingTurn(id: string): Promise<PendingTurnData> {
  return (await apiClient.get<ApiSuccess<PendingTurnData>>(`/llm/${encodeURIComponent(id)}/pending`)).data;
}
