import { useQueryClient } from '@tanstack/react-query';
import type { StreamEvent, TaskSuggestions } from '@taleloom/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiClientError } from '../../../lib/api-client';
import { streamTaskSuggestions } from '../api/create-tasks';
import { taskKeys } from '../api/task-keys';

export interface SuggestionsView {
  /** The suggestions to show: the stream's, else the stored ones. */
  suggestions: TaskSuggestions | null;
  streaming: boolean;
  /** The model's first answer could not be read: it is being asked again. */
  retrying: boolean;
}

/**
 * The init view's suggestions (spec section 4 "Task dashboard"): streamed in one by one, then the
 * final set; once the task info holds that batch, its copy (which knows what was accepted) is shown.
 * A stream that breaks off leaves the stored set (the server keeps the request going and stores its
 * result; the task info is fetched again).
 */
export function useTaskSuggestions(storyId: string, stored: TaskSuggestions | null, onError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<TaskSuggestions | null>(null);
  const [streaming, setStreaming] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(async () => {
    if (abort.current) return;
    const controller = new AbortController();
    abort.current = controller;
    setStreaming(true);
    setRetrying(false);
    setLive({ batch: '', groups: [] });
    let failed: unknown = null;
    let complete = false;
    const onEvent = (event: StreamEvent) => {
      if (event.type === 'task_suggestion') {
        setLive((s) => ({ batch: event.batch, groups: [...(s?.batch === event.batch ? s.groups : []), { ...event.group, accepted_as: null }] }));
      } else if (event.type === 'task_retry') {
        setRetrying(true);
        setLive({ batch: '', groups: [] });
      } else if (event.type === 'task_suggestions') {
        complete = true;
        setLive(event.suggestions);
        setRetrying(false);
      } else if (event.type === 'error') {
        failed = new ApiClientError(502, event.code, event.message);
      }
    };
    try {
      await streamTaskSuggestions(storyId, onEvent, controller.signal);
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) failed = error;
    } finally {
      abort.current = null;
      setStreaming(false);
      setRetrying(false);
      // An incomplete stream shows what the server stored (the request may still finish there).
      if (!complete) setLive(null);
      await queryClient.invalidateQueries({ queryKey: taskKeys.all });
    }
    if (failed) onErrorRef.current(failed);
  }, [storyId, queryClient]);

  // The stored set is the server's word (it knows which were accepted) once it is the same batch.
  const suggestions = live && (streaming || stored?.batch !== live.batch) ? live : (stored ?? live);
  const view: SuggestionsView = { suggestions, streaming, retrying };
  return { ...view, start };
}
