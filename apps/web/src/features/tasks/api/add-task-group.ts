import { useMutation } from '@tanstack/react-query';
import type { AddTaskGroupDto, ApiSuccess, TaskInfo } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { useStoreTaskInfo } from './task-mutations';

/** `POST /api/tasks/{id}/add_new`: accept a suggestion as a new group. */
export async function addTaskGroup(storyId: string, body: Omit<AddTaskGroupDto, 'language'>): Promise<TaskInfo> {
  const response = await apiClient.post<ApiSuccess<TaskInfo>>(`/tasks/${encodeURIComponent(storyId)}/add_new`, body);
  return response.data;
}

export function useAddTaskGroup(storyId: string) {
  const store = useStoreTaskInfo(storyId);
  return useMutation({ mutationFn: (body: Omit<AddTaskGroupDto, 'language'>) => addTaskGroup(storyId, body), onSuccess: store });
}
