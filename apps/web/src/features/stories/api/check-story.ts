import type { ApiSuccess, CheckStoryData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

/** `GET /api/user/check-story/{id}`: whether I own it and whether it is public (404 when neither). */
export async function checkStory(id: string): Promise<CheckStoryData> {
  const response = await apiClient.get<ApiSuccess<CheckStoryData>>(`/user/check-story/${encodeURIComponent(id)}`);
  return response.data;
}
