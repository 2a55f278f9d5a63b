import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, TaskInfo, UpdateTaskGroupDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { useStoreTaskInfo } from './task-mutations';

export type TaskGroupChange = Omit<UpdateTaskGroupDto, 'language'>;

/** `PUT /api/tasks/{id}/{groupId}`: targets and names, or the group's relations. */
export async function updateTaskGroup(storyId: string, tasksId: number, body: TaskGroupChange): Promise<TaskInfo> {
  const response = await apiClient.put<ApiSuccess<TaskInfo>>(`/tasks/${encodeURIComponent(storyId)}/${tasksId}`, body);
  return response.data;
}

export function useUpdateTaskGroup(storyId: string) {
  const store = useStoreTaskInfo(storyId);
  return useMutation({
    mutationFn: ({ tasksId, body }: { tasksId: number; body: TaskGroupChange }) => updateTaskGroup(storyId, tasksId, body),
    onSuccess: store,
  });
}
