import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TASK_STATUS_POLL_MS, type ApiSuccess, type TaskInfo, type TaskStatusData } from '@taleloom/contracts';
import { useEffect } from 'react';
import { apiClient } from '../../../lib/api-client';
import { taskKeys } from './task-keys';

/** `GET /api/tasks/status/{id}`: totals, `rev` and which groups can be scored. */
export async function getTaskStatus(storyId: string): Promise<TaskStatusData> {
  const response = await apiClient.get<ApiSuccess<TaskStatusData>>(`/tasks/status/${encodeURIComponent(storyId)}`);
  return response.data;
}

/**
 * Polls the status every 30 seconds (spec section 9) while the play screen is open; when the tasks
 * changed elsewhere (another tab, a scoring that finished unseen) the task info is fetched again.
 */
export function useTaskStatus(storyId: string) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: taskKeys.status(storyId),
    queryFn: () => getTaskStatus(storyId),
    refetchInterval: TASK_STATUS_POLL_MS,
    refetchIntervalInBackground: false,
  });
  const rev = status.data?.rev;
  useEffect(() => {
    if (rev === undefined) return;
    const info = queryClient.getQueryData<TaskInfo>(taskKeys.info(storyId));
    if (info && info.rev !== rev) void queryClient.invalidateQueries({ queryKey: taskKeys.info(storyId) });
  }, [rev, storyId, queryClient]);
  return status;
}
