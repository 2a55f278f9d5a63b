import type { StreamEvent } from '@taleloom/contracts';
import { postStream } from '../../../lib/sse';

/** `POST /api/tasks/{id}/create`: streams new task-group suggestions. */
export function streamTaskSuggestions(storyId: string, onEvent: (event: StreamEvent) => void, signal?: AbortSignal): Promise<void> {
  return postStream(`/tasks/${encodeURIComponent(storyId)}/create`, {}, onEvent, signal);
}
