import { useQueryClient } from '@tanstack/react-query';
import type { StreamEvent, TaskGroup, TaskVerdict } from '@taleloom/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiClientError } from '../../../lib/api-client';
import { streamTaskScore } from '../api/score-task-group';
import { taskKeys } from '../api/task-keys';

export type ScorePhase = 'idle' | 'running' | 'success' | 'error';

export interface ScoreView {
  phase: ScorePhase;
  verdicts: TaskVerdict[];
  retrying: boolean;
  group: TaskGroup | null;
  totalScore: number | null;
  error: unknown;
}

const IDLE: ScoreView = { phase: 'idle', verdicts: [], retrying: false, group: null, totalScore: null, error: null };

/** One scoring request as the score dialog shows it: verdicts as they stream in, then the scored group. */
export function useTaskScore(storyId: string) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<ScoreView>(IDLE);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(
    async (index: number, tasksId: number) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setView({ ...IDLE, phase: 'running' });
      const onEvent = (event: StreamEvent) => {
        if (event.type === 'task_verdict') setView((v) => ({ ...v, verdicts: [...v.verdicts, event.verdict] }));
        else if (event.type === 'task_retry') setView((v) => ({ ...v, verdicts: [], retrying: true }));
        else if (event.type === 'task_scored') setView((v) => ({ ...v, group: event.group, totalScore: event.total_score }));
        else if (event.type === 'done') setView((v) => ({ ...v, phase: 'success', retrying: false }));
        else if (event.type === 'error') setView((v) => ({ ...v, phase: 'error', retrying: false, error: new ApiClientError(502, event.code, event.message) }));
      };
      try {
        await streamTaskScore(storyId, index, tasksId, onEvent, controller.signal);
        // A stream that ended without its last event: the server finishes and stores it anyway.
        setView((v) => (v.phase === 'running' ? { ...v, phase: 'error', error: new ApiClientError(0, 'NETWORK_ERROR', '') } : v));
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        setView((v) => ({ ...v, phase: 'error', retrying: false, error }));
      } finally {
        if (abort.current === controller) abort.current = null;
        void queryClient.invalidateQueries({ queryKey: taskKeys.all });
      }
    },
    [storyId, queryClient],
  );

  const reset = useCallback(() => {
    abort.current?.abort();
    abort.current = null;
    setView(IDLE);
  }, []);

  return { view, start, reset };
}
