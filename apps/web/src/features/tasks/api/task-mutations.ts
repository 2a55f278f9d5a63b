import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TaskInfo } from '@taleloom/contracts';
import { taskKeys } from './task-keys';

/** After a change the API answers the whole task info: it replaces the cache, and the status is read again. */
export function storeTaskInfo(queryClient: QueryClient, storyId: string, info: TaskInfo): void {
  queryClient.setQueryData(taskKeys.info(storyId), info);
  void queryClient.invalidateQueries({ queryKey: taskKeys.status(storyId) });
}

export function useStoreTaskInfo(storyId: string) {
  const queryClient = useQueryClient();
  return (info: TaskInfo) => storeTaskInfo(queryClient, storyId, info);
}
