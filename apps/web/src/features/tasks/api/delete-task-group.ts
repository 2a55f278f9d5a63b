import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, TaskInfo } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { useStoreTaskInfo } from './task-mutations';

/** `DELETE /api/tasks/{id}/{index}?tasks_id=`: the group at `index`, if it is still group `tasksId`. */
export async function deleteTaskGroup(storyId: string, index: number, tasksId: number): Promise<TaskInfo> {
  const response = await apiClient.delete<ApiSuccess<TaskInfo>>(`/tasks/${encodeURIComponent(storyId)}/${index}`, { query: { tasks_id: tasksId } });
  return response.data;
}

export function useDeleteTaskGroup(storyId: string) {
  const store = useStoreTaskInfo(storyId);
  return useMutation({
    mutationFn: ({ index, tasksId }: { index: number; tasksId: number }) => deleteTaskGroup(storyId, index, tasksId),
    onSuccess: store,
  });
}
