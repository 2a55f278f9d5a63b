import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, StoryData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

/** `GET /api/llm?id=`: the story record (mine, or someone's public version). */
export async function getStory(id: string): Promise<StoryData> {
  const response = await apiClient.get<ApiSuccess<StoryData>>('/llm', { query: { id } });
  return response.data;
}

export const storyQueryOptions = (id: string) =>
  queryOptions({ queryKey: storyKeys.detail(id), queryFn: () => getStory(id) });

export function useStory(id: string | null, enabled = true) {
  return useQuery({ ...storyQueryOptions(id ?? ''), enabled: Boolean(id) && enabled });
}
