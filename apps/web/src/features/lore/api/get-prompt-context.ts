import { useQuery } from '@tanstack/react-query';
import type { ApiSuccess, PromptContextData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { loreKeys } from './lore-keys';

/** `GET /api/llm/{id}/context`: the prompt of the pending or last turn, part by part (null before the first send). */
export async function getPromptContext(storyId: string): Promise<PromptContextData | null> {
  return (await apiClient.get<ApiSuccess<PromptContextData | null>>(`/llm/${encodeURIComponent(storyId)}/context`)).data;
}

/** Read again every time the inspector is shown (a send may have happened meanwhile). */
export function usePromptContext(storyId: string, enabled: boolean) {
  return useQuery({ queryKey: loreKeys.context(storyId), queryFn: () => getPromptContext(storyId), enabled, refetchOnMount: 'always', staleTime: 0 });
}
