import type { AcceptTurnData, AcceptTurnDto, ApiSuccess } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

/** `POST /api/llm/{id}/accept`: appends the turn to the story's text. */
export async function acceptTurn(id: string, body: Omit<AcceptTurnDto, 'language'>): Promise<AcceptTurnData> {
  return (await apiClient.post<ApiSuccess<AcceptTurnData>>(`/llm/${encodeURIComponent(id)}/accept`, body)).data;
}
