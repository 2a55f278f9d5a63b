import type { StreamEvent } from '@taleloom/contracts';
import { postStream } from '../../../lib/sse';

/** `POST /api/tasks/{id}/{index}/score`: streams the judgement of the open targets of group `tasksId` at `index`. */
export function streamTaskScore(
  storyId: string,
  index: number,
  tasksId: number,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  return postStream(`/tasks/${encodeURIComponent(storyId)}/${index}/score`, { tasks_id: tasksId }, onEvent, signal);
}
