import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, TaskInfo } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { taskKeys } from './task-keys';

/** `GET /api/tasks?story_id=`: the story's task groups, totals and latest suggestions. */
export async function getTasks(storyId: string): Promise<TaskInfo> {
  const response = await apiClient.get<ApiSuccess<TaskInfo>>('/tasks', { query: { story_id: storyId } });
  return response.data;
}

export const tasksQueryOptions = (storyId: string) => queryOptions({ queryKey: taskKeys.info(storyId), queryFn: () => getTasks(storyId) });

export function useTasks(storyId: string, enabled = true) {
  return useQuery({ ...tasksQueryOptions(storyId), enabled });
}
