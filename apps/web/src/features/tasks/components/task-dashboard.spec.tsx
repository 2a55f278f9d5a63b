import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PendingTurnData, StreamEvent, TaskGroup, TaskInfo } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';

const id = 'b'.repeat(24);
const ok = <T,>(data: T) => ({ status: 'success', message: 'ok', data });
const idle: PendingTurnData = { state: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', model: '', errorCode: null, cost: 0, turnId: null, takes: [], retryAfterMs: 0 };
const story = (activity: string | null) => ({
  id, storyNo: 1, userID: 'u1', name: 'The Ferry', main_text: 'Mara waits.', goal: '', role: 'Mara', user: 'u1', 'hidden-settings': '',
  author: 'alice', writer: 'alice', history_table: [], note_table: [], prologue_and_characters: 'Mara waits.', play_mode: 'fly_free',
  recovery_point: false, recovery_point_id: null, author_remark: '', previous_summary: '', model_name: '', model_type: '', activity,
  activity_story_index: null, permission: '0', level: 0, clonedFrom: null, pinToTop: false, time: 1, isOwner: true,
  settings_system_prompt_switch: 'default', settings_system_prompt_text: '', settings_user_prompt_switch: 'default', settings_user_prompt_text: '',
  settings_camera_switch: true, settings_camera_consistency_switch: false, settings_camera_style_switch: 'default',
  settings_camera_style_prompt_text: '', settings_pic_size: '512*512',
});
const group: TaskGroup = {
  global_tasks_id: 'g1', tasks_id: 1, series_name: 'Harbour secrets', main_character: 'Mara', score: 0, tasks_created_at_turn: 0,
  tasks_scored_at_turn: 0, preceding_task_groups: [], subsequent_task_groups: [],
  targets: [{ id: 't1', title: 'Find the key', type: 'reality', score: 2, completed: false, complete_turn: null, original_probability: 60, current_probability: 60, evidence: '', reason: '' }],
};
const info = (over: Partial<TaskInfo> = {}): TaskInfo => ({
  story_id: id, tasks_list: [group], current_tasks_id: 1, current_turn: 0, total_score: 0, total_forbidden_turns: 0, complete_task: 0,
  suggestions: null, locked: false, rev: 1, ...over,
});

function sse(events: StreamEvent[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')));
      c.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function serve(opts: { activity?: string | null; tasks: TaskInfo; route?: (url: string, init: RequestInit) => Response | undefined }) {
  const calls: { url: string; method: string; body: Record<string, unknown> }[] = [];
  mockFetch((url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ url, method: init.method ?? 'GET', body });
    const custom = opts.route?.(url, init);
    if (custom) return custom;
    if (url === `/api/user/check-story/${id}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
    if (url === `/api/llm?id=${id}`) return jsonResponse(ok(story(opts.activity ?? null)));
    if (url === `/api/llm/${id}/pending`) return jsonResponse(ok(idle));
    if (url === `/api/llm/${id}/branches`) return jsonResponse(ok({ branches: [], current: id, max: 50 }));
    if (url === '/api/model_list') return jsonResponse(ok([{ label: 'Demo', value: 'demo', points: 0, status: 4, demo: true, contextWindow: 8192, maxOutput: 400 }]));
    if (url === `/api/tasks?story_id=${id}`) return jsonResponse(ok(opts.tasks));
    if (url === `/api/tasks/status/${id}`) return jsonResponse(ok({ rev: opts.tasks.rev, current_turn: 0, current_tasks_id: 1, total_score: 7, total_forbidden_turns: 0, complete_task: 0, running: null, list: [] }));
    return jsonResponse(ok(testUser));
  });
  return calls;
}

async function openDashboard() {
  storeLoggedInUser();
  window.localStorage.setItem('showGuide', 'false');
  renderApp(`/play?id=${id}`);
  const button = await screen.findByTestId('toolbar-task', {}, { timeout: 5000 });
  await waitFor(() => expect(within(button.closest('.ant-badge')!.parentElement!).getByText('7')).toBeInTheDocument());
  await act(async () => fireEvent.click(button));
  return screen.findByTestId('task-dashboard');
}

describe('task dashboard', () => {
  it('shows an activity story read-only: no edit, delete, new group or mode change', async () => {
    serve({ activity: '202402sf', tasks: info({ locked: true }) });
    await openDashboard();
    await screen.findByTestId('task-group');
    expect(screen.getByTestId('tasks-locked')).toBeInTheDocument();
    for (const hidden of ['group-edit', 'group-delete', 'tasks-new-group']) expect(screen.queryByTestId(hidden)).toBeNull();
    expect(screen.getByTestId('group-score-button')).toBeEnabled();
    expect(screen.getByTestId('tasks-play-mode').closest('.ant-select')).toHaveClass('ant-select-disabled');
  }, 30_000);

  it('warns (not errs) when the current plot was already scored, and closes the score dialog', async () => {
    const calls = serve({
      tasks: info(),
      route: (url) =>
        url === `/api/tasks/${id}/0/score`
          ? jsonResponse({ status: 'error', code: 'TASK_ALREADY_SCORED', message: 'already' }, 409)
          : undefined,
    });
    await openDashboard();
    await act(async () => fireEvent.click(await screen.findByTestId('group-score-button')));
    await screen.findByText('The score for the current plot was already calculated. Play on, then score again.');
    await waitFor(() => expect(screen.queryByTestId('score-dialog')).toBeNull());
    expect(calls.find((c) => c.url.endsWith('/score'))!.body).toMatchObject({ tasks_id: 1, language: 'en' });
  }, 30_000);

  it('a complete group (the list was stale) is information, not an error, and closes the score dialog', async () => {
    serve({
      tasks: info(),
      route: (url) =>
        url === `/api/tasks/${id}/0/score`
          ? jsonResponse({ status: 'error', code: 'TASK_NOTHING_TO_SCORE', message: 'nothing' }, 409)
          : undefined,
    });
    await openDashboard();
    await act(async () => fireEvent.click(await screen.findByTestId('group-score-button')));
    const notice = await screen.findByText('Every task of this group is completed: there is nothing left to score.');
    expect(notice.closest('.ant-message-notice')?.querySelector('.anticon-info-circle')).not.toBeNull();
    await waitFor(() => expect(screen.queryByTestId('score-dialog')).toBeNull());
  }, 30_000);

  it('shows a scoring stream that fails (TASK_OUTPUT_INVALID) in the score dialog, without a tick, and keeps it open', async () => {
    serve({
      tasks: info(),
      route: (url) =>
        url === `/api/tasks/${id}/0/score`
          ? sse([
              { type: 'task_verdict', verdict: { index: 0, target_id: 't1', completed: false, evidence: '', reason: 'Unreadable.', probability: 10, unproven: false } },
              { type: 'task_retry', attempt: 2 },
              { type: 'error', code: 'TASK_OUTPUT_INVALID', message: 'server text' },
            ])
          : undefined,
    });
    await openDashboard();
    await act(async () => fireEvent.click(await screen.findByTestId('group-score-button')));
    expect(await screen.findByTestId('score-error')).toHaveTextContent('The AI did not answer in a readable form, twice. Nothing was charged; please try again.');
    expect(screen.getByTestId('score-dialog')).toBeInTheDocument();
    expect(screen.queryByTestId('score-success')).toBeNull();
    expect(document.querySelector('.tl-tasks-score__tick')).toBeNull();
    // The first answer's verdicts were dropped with the retry; nothing is shown as judged.
    expect(screen.queryAllByTestId('score-verdict')).toEqual([]);
    expect(document.querySelector('.tl-tasks-score .tl-tasks-init__progress')).toBeNull();
  }, 30_000);

  it('shows a suggestion stream that fails (TASK_OUTPUT_INVALID) as an error and keeps no half-written set', async () => {
    serve({
      tasks: info({ tasks_list: [] }),
      route: (url) =>
        url === `/api/tasks/${id}/create`
          ? sse([
              { type: 'task_suggestion', batch: 'batch-0002', index: 0, group: { series_name: 'Broken', main_character: 'Mara', targets: [{ title: 'Broken goal', type: 'reality', score: 1, probability: 50 }] } },
              { type: 'task_retry', attempt: 2 },
              { type: 'error', code: 'TASK_OUTPUT_INVALID', message: 'server text' },
            ])
          : undefined,
    });
    await openDashboard();
    await act(async () => fireEvent.click(await screen.findByTestId('suggestion-create')));
    const notice = await screen.findByText('The AI did not answer in a readable form, twice. Nothing was charged; please try again.');
    expect(notice.closest('.ant-message-notice')?.querySelector('.anticon-close-circle')).not.toBeNull();
    await waitFor(() => expect(screen.queryByTestId('tasks-streaming')).toBeNull());
    expect(screen.queryByTestId('task-suggestion')).toBeNull();
    expect(screen.queryByText('Broken')).toBeNull();
    expect(screen.getByTestId('suggestion-create')).toBeEnabled();
  }, 30_000);

  it('streams suggestions, drops them on a retry, and accepts the one shown', async () => {
    const draft = (name: string) => ({ series_name: name, main_character: 'Mara', targets: [{ title: `${name} goal`, type: 'emotion' as const, score: 1, probability: 50 }] });
    const calls = serve({
      tasks: info({ tasks_list: [] }),
      route: (url) => {
        if (url === `/api/tasks/${id}/create`) {
          return sse([
            { type: 'task_suggestion', batch: 'batch-0001', index: 0, group: draft('Broken') },
            { type: 'task_retry', attempt: 2 },
            { type: 'task_suggestion', batch: 'batch-0001', index: 0, group: draft('First') },
            { type: 'task_suggestion', batch: 'batch-0001', index: 1, group: draft('Second') },
            { type: 'task_suggestions', suggestions: { batch: 'batch-0001', groups: [{ ...draft('First'), accepted_as: null }, { ...draft('Second'), accepted_as: null }] } },
            { type: 'usage', promptTokens: 0, completionTokens: 10, cost: 0 },
            { type: 'done', turnId: 'batch-0001' },
          ]);
        }
        if (url === `/api/tasks/${id}/add_new`) return jsonResponse(ok(info({ tasks_list: [{ ...group, series_name: 'Second', tasks_id: 2 }], suggestions: { batch: 'batch-0001', groups: [] } })));
        return undefined;
      },
    });
    await openDashboard();
    await act(async () => fireEvent.click(await screen.findByTestId('suggestion-create')));
    await waitFor(() => expect(screen.getByTestId('suggestion-name')).toHaveTextContent('First'));
    expect(screen.queryByText('Broken')).toBeNull();
    fireEvent.click(screen.getByTestId('suggestion-switch'));
    expect(screen.getByTestId('suggestion-counter')).toHaveTextContent('Set 2 of 2');
    await act(async () => fireEvent.click(screen.getByTestId('suggestion-accept')));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/add_new'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/add_new'))!.body).toMatchObject({ batch: 'batch-0001', index: 1 });
  }, 30_000);
});
