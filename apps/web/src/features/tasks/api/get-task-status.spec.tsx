import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { TASK_STATUS_POLL_MS, type TaskInfo, type TaskStatusData } from '@taleloom/contracts';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/providers';
import { jsonResponse, mockFetch } from '../../../test/render-app';
import { useTaskStatus } from './get-task-status';
import { useTasks } from './get-tasks';

const id = 'c'.repeat(24);
const ok = <T,>(data: T) => jsonResponse({ status: 'success', message: 'ok', data });

// The server's task state: the test moves `rev` (and the score) as another tab or a finished scoring would.
function serve() {
  const server = { rev: 1, score: 0 };
  const calls = { status: 0, info: 0 };
  mockFetch((url) => {
    if (url === `/api/tasks/status/${id}`) {
      calls.status++;
      return ok<TaskStatusData>({ rev: server.rev, current_turn: 0, current_tasks_id: null, total_score: server.score, total_forbidden_turns: 0, complete_task: 0, running: null, list: [] });
    }
    if (url === `/api/tasks?story_id=${id}`) {
      calls.info++;
      return ok<TaskInfo>({ story_id: id, tasks_list: [], current_tasks_id: null, current_turn: 0, total_score: server.score, total_forbidden_turns: 0, complete_task: 0, suggestions: null, locked: false, rev: server.rev });
    }
    return jsonResponse({ status: 'error', code: 'ROUTE_NOT_FOUND', message: url }, 404);
  });
  return { server, calls };
}

// The play screen's badge polls the status; the open dashboard shows the task info.
function renderPolling() {
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => ({ status: useTaskStatus(id), info: useTasks(id) }), { wrapper });
}

// The fake clock, in ms since the hook was mounted. A poll's answer, and the fetch it causes, settle
// within a few ms (a zero timeout set while the clock ticks runs 1 ms later).
let now = 0;
async function clockAt(at: number) {
  await act(() => vi.advanceTimersByTimeAsync(at - now));
  now = at;
}
const SETTLE_MS = 10;

describe('the task status poll', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'test-token');
    vi.useFakeTimers();
    now = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the status every 30 seconds and fetches the task info again when its rev changed, and only then', async () => {
    expect(TASK_STATUS_POLL_MS).toBe(30_000);
    const { server, calls } = serve();
    const { result } = renderPolling();
    await clockAt(SETTLE_MS);
    expect(calls).toEqual({ status: 1, info: 1 });
    expect(result.current.info.data?.rev).toBe(1);

    // Nothing before 30 s; one poll at 30 s; the same rev leaves the task info alone.
    await clockAt(TASK_STATUS_POLL_MS - 1);
    expect(calls).toEqual({ status: 1, info: 1 });
    await clockAt(TASK_STATUS_POLL_MS);
    expect(calls.status).toBe(2);
    await clockAt(TASK_STATUS_POLL_MS + SETTLE_MS);
    expect(calls).toEqual({ status: 2, info: 1 });

    // The tasks changed on the server: the next poll sees the new rev and the task info is fetched again.
    server.rev = 2;
    server.score = 3;
    await clockAt(2 * TASK_STATUS_POLL_MS - 1);
    expect(calls).toEqual({ status: 2, info: 1 });
    expect(result.current.info.data?.total_score).toBe(0);
    await clockAt(2 * TASK_STATUS_POLL_MS);
    expect(calls.status).toBe(3);
    await clockAt(2 * TASK_STATUS_POLL_MS + SETTLE_MS);
    expect(calls).toEqual({ status: 3, info: 2 });
    expect(result.current.status.data).toMatchObject({ rev: 2, total_score: 3 });
    expect(result.current.info.data).toMatchObject({ rev: 2, total_score: 3 });

    // Caught up: later polls with the same rev fetch nothing more.
    await clockAt(4 * TASK_STATUS_POLL_MS + SETTLE_MS);
    expect(calls).toEqual({ status: 5, info: 2 });
  });
});
