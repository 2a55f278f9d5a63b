import type { ApiSuccess, PendingTurnData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

/** `POST /api/llm/{id}/discard`: undo; answers the dropped turn. */
export async function discardTurn(id: string): Promise<PendingTurnData> {
  return (await apiClient.post<ApiSuccess<PendingTurnData>>(`/llm/${encodeURIComponent(id)}/discard`)).data;
}
