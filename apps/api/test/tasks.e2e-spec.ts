import {
  ErrorCode,
  type AddTaskGroupDto,
  type StreamEvent,
  type TaskGroup,
  type TaskInfo,
  type TaskSuggestions,
  type TaskTargetDto,
  type UpdateTaskGroupDto,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import { TurnRunner } from '../src/play/turn.runner';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { TaskRunner } from '../src/tasks/task.runner';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { listenOnLoopback, postEvents, sendTurn, storyDoc, stubModel, unthrottle } from './support/play-helpers';
import { startOpenAIStub, stubTaskAnswer, type OpenAIStub } from './support/openai-stub';
import { createTestApp, type TestApp } from './test-app';

const PROLOGUE = 'Mara waits at the pier. The ferry is late.\nIlan watches from the customs house.';

describe('tasks: AI task groups, editing, scoring and play modes (/api/tasks)', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  const drain = () => Promise.all([t.app.get(TaskRunner).drain(), t.app.get(TurnRunner).drain()]);
  const grant = (user: TestUser, amount: number) =>
    t.app.get(PowerService).grant(user.userID, amount, 'test', `test-grant-${Math.random()}`);

  const suggest = (id: string, user = alice) => postEvents(base, user.token, `/api/tasks/${id}/create`, {});
  const score = (id: string, index: number | string, body: object = {}, user = alice) =>
    postEvents(base, user.token, `/api/tasks/${id}/${index}/score`, body);
  const info = async (id: string): Promise<TaskInfo> => (await as(t, alice).get(`/api/tasks?story_id=${id}`)).body.data;
  const ofType = <K extends StreamEvent['type']>(events: StreamEvent[], type: K) =>
    events.filter((e): e is Extract<StreamEvent, { type: K }> => e.type === type);
  const targetsOf = (group: TaskGroup): TaskTargetDto[] =>
    group.targets.map(({ id, title, type, score: s, completed }) => ({ id, title, type, score: s, completed }));

  /** A story with one accepted group (the stub's first suggestion); answers the story id and the info. */
  async function storyWithGroup(body: object = {}): Promise<{ id: string; info: TaskInfo }> {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE, ...body });
    const res = await suggest(id);
    const batch = ofType(res.events, 'task_suggestions')[0].suggestions.batch;
    const added = await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch, index: 0 } satisfies AddTaskGroupDto);
    expect(added.status).toBe(200);
    return { id, info: added.body.data };
  }

  // Plays one turn whose text names `line` and accepts it: the plot moves on by a turn.
  async function playLine(id: string, line: string) {
    await unthrottle(t, id);
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: line, model_name: 'free' });
    const turnId = (res.events.at(-1) as { turnId: string }).turnId;
    await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: `Mara: ${line}`, newContent: 'The gulls cried.', turnId });
  }

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'stub', { contextWindow: 8192 }), stubModel(stub.baseURL, 'free', { points: 0, contextWindow: 8192 })]),
      DEMO_MODEL: 'off',
      PROVIDER_TIMEOUT_SECONDS: '5',
      // The operator allows the loopback address the stub listens on (a custom model test below).
      CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
    });
    base = await listenOnLoopback(t);
  });
  beforeEach(async () => {
    await t.clean();
    stub.reset();
    stub.set({ completionTokens: 200 });
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
    await grant(alice, 1000);
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await stub.close();
  });

  it('streams suggestions as the model writes them, stores them, charges once; accepting adds a group once', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    expect(await info(id)).toMatchObject({ tasks_list: [], total_score: 0, current_turn: 0, suggestions: null, locked: false });

    const res = await suggest(id);
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('text/event-stream');
    const streamed = ofType(res.events, 'task_suggestion');
    expect(streamed.map((e) => e.group.series_name)).toEqual(['Harbour secrets', 'Before the storm', 'Old debts']);
    expect(streamed[0].group.targets[0]).toEqual({ title: 'Find the lighthouse key', type: 'reality', score: 2, probability: 60 });
    expect(res.events.map((e) => e.type).slice(-3)).toEqual(['task_suggestions', 'usage', 'done']);
    const { suggestions } = ofType(res.events, 'task_suggestions')[0];
    expect(suggestions.groups).toHaveLength(3);
    expect(res.events.at(-2)).toMatchObject({ type: 'usage', cost: 100 });
    // The prompt carried the story and asked for JSON.
    const sent = stub.bodies[0];
    expect(sent.messages[0].content).toContain('Answer with JSON only');
    expect(sent.messages[1].content).toContain('<task-groups-request count="3">');
    expect(sent.messages[1].content).toContain('Mara waits at the pier.');
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(900);
    expect((await info(id)).suggestions).toEqual({ ...suggestions, groups: suggestions.groups.map((g) => ({ ...g, accepted_as: null })) });

    const body = { batch: suggestions.batch, index: 1 } satisfies AddTaskGroupDto;
    const added = await as(t, alice).post(`/api/tasks/${id}/add_new`, body);
    expect(added.status).toBe(200);
    const group: TaskGroup = added.body.data.tasks_list[0];
    expect(group).toMatchObject({
      tasks_id: 1, series_name: 'Before the storm', main_character: 'Mara', score: 0, tasks_created_at_turn: 0,
      tasks_scored_at_turn: null, preceding_task_groups: [], subsequent_task_groups: [],
    });
    expect(group.global_tasks_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(group.targets).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{12}$/), title: 'Reach the island before the storm', type: 'reality', score: 3, completed: false,
        complete_turn: null, original_probability: 35, current_probability: 35, evidence: '', reason: '',
      },
    ]);
    expect(added.body.data).toMatchObject({ current_tasks_id: 1, suggestions: { groups: [{ accepted_as: null }, { accepted_as: 1 }, { accepted_as: null }] } });
    // A double click adds nothing more.
    const again = await as(t, alice).post(`/api/tasks/${id}/add_new`, body);
    expect(again.body.data.tasks_list).toHaveLength(1);
    const second = await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch: suggestions.batch, index: 0 });
    expect(second.body.data.tasks_list.map((g: TaskGroup) => g.tasks_id)).toEqual([1, 2]);
    expect(second.body.data.current_tasks_id).toBe(2);
    // An unknown batch is not found; an index no request can hold is refused by the DTO. Neither adds a group.
    const unknown = await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch: '0123456789abcdef', index: 0 });
    expect([unknown.status, unknown.body.code]).toEqual([404, ErrorCode.TASKS_NOT_FOUND]);
    const outOfRange = await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch: suggestions.batch, index: 5 });
    expect([outOfRange.status, outOfRange.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    expect((await info(id)).tasks_list.map((g) => g.tasks_id)).toEqual([1, 2]);
  });

  it('an index within range that the stored suggestions do not hold (the model wrote fewer groups) is not found', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    // The model answers two groups where three were asked for: both are kept, index 2 names nothing.
    stub.set({
      completionTokens: 200,
      chunks: (body) => {
        const { groups } = JSON.parse(stubTaskAnswer(body)!.replace(/```(json)?/g, '')) as { groups: unknown[] };
        return [JSON.stringify({ groups: groups.slice(0, 2) })];
      },
    });
    const res = await suggest(id);
    const { suggestions } = ofType(res.events, 'task_suggestions')[0];
    expect(suggestions.groups.map((g) => g.series_name)).toEqual(['Harbour secrets', 'Before the storm']);
    const missing = await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch: suggestions.batch, index: 2 } satisfies AddTaskGroupDto);
    expect([missing.status, missing.body.code]).toEqual([404, ErrorCode.TASKS_NOT_FOUND]);
    const after = await info(id);
    expect(after.tasks_list).toEqual([]);
    expect(after.suggestions!.groups.map((g) => g.accepted_as)).toEqual([null, null]);
    // The groups that are there can still be accepted.
    const last = await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch: suggestions.batch, index: 1 } satisfies AddTaskGroupDto);
    expect([last.status, last.body.data.tasks_list.map((g: TaskGroup) => g.series_name)]).toEqual([200, ['Before the storm']]);
  });

  it('retries a malformed answer once; a second one fails clearly and charges nothing', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    stub.set({ completionTokens: 200, malformedTasks: 1 });
    const retried = await suggest(id);
    expect(retried.events.filter((e) => e.type === 'task_retry')).toEqual([{ type: 'task_retry', attempt: 2 }]);
    expect(ofType(retried.events, 'task_suggestions')[0].suggestions.groups).toHaveLength(3);
    expect(stub.requests).toBe(2);
    await drain();
    // Only the answer that could be read is charged.
    expect(await balanceOf(t, alice.userID)).toBe(900);

    stub.set({ completionTokens: 200, malformedTasks: 2 });
    const failed = await suggest(id);
    expect(failed.events.map((e) => e.type)).toEqual(['task_retry', 'error']);
    expect(failed.events.at(-1)).toMatchObject({ code: ErrorCode.TASK_OUTPUT_INVALID, message: expect.stringContaining('Nothing was charged') });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(900);
    const holds = await entriesOf(t, alice.userID, { kind: 'release' });
    expect(holds).toHaveLength(1);
    // The earlier suggestions are kept; the request slot is free again.
    expect((await info(id)).suggestions?.groups).toHaveLength(3);
    expect((await suggest(id)).events.at(-1)?.type).toBe('done');

    // Scoring the same way: a Chinese error message for a Chinese request.
    const { id: story2 } = await storyWithGroup();
    stub.set({ completionTokens: 200, malformedTasks: 2 });
    const before = await balanceOf(t, alice.userID);
    const bad = await score(story2, 0, { language: 'zh-CN' });
    expect(bad.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.TASK_OUTPUT_INVALID, message: expect.stringContaining('未扣除能量') });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before);
    expect((await info(story2)).tasks_list[0].tasks_scored_at_turn).toBeNull();
  });

  it('refuses before streaming: not enough power, a request already running, a provider failure charges nothing', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    const poor = await signUp(t, 'poor');
    const pid = await createStory(t, poor);
    const broke = await suggest(pid, poor);
    expect([broke.status, broke.body?.code]).toEqual([402, ErrorCode.NOT_ENOUGH_POWER]);
    expect(stub.requests).toBe(0);

    // The first suggestion arrives while the model is still writing; the browser leaves; the request
    // runs on, is stored and charged once, and meanwhile a second one is refused.
    stub.set({ completionTokens: 200, delayMs: 5 });
    const first = await postEvents(base, alice.token, `/api/tasks/${id}/create`, {}, 1);
    expect(first.events[0].type).toBe('task_suggestion');
    expect(stub.open).toBe(1);
    const busy = await suggest(id);
    expect([busy.status, busy.body?.code]).toEqual([409, ErrorCode.GENERATION_IN_PROGRESS]);
    await drain();
    expect((await info(id)).suggestions?.groups).toHaveLength(3);
    expect(await balanceOf(t, alice.userID)).toBe(900);

    stub.set({ httpStatus: 500 });
    const failed = await suggest(id);
    expect(failed.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.PROVIDER_ERROR });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(900);
  });

  it('scoring refused for want of power, or failed by the provider, charges nothing and completes nothing', async () => {
    const noDrift = async () => expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
    // Just enough power for one suggestion: the group exists, then the scoring cannot be paid for.
    const poor = await signUp(t, 'poor');
    await grant(poor, 100);
    const pid = await createStory(t, poor, { prologue_and_characters: PROLOGUE });
    const batch = ofType((await suggest(pid, poor)).events, 'task_suggestions')[0].suggestions.batch;
    expect((await as(t, poor).post(`/api/tasks/${pid}/add_new`, { batch, index: 0 })).status).toBe(200);
    await drain();
    expect(await balanceOf(t, poor.userID)).toBe(0);
    const requests = stub.requests;
    const broke = await score(pid, 0, {}, poor);
    expect([broke.status, broke.body?.code]).toEqual([402, ErrorCode.NOT_ENOUGH_POWER]);
    // Refused before the model was asked or anything was held.
    expect(stub.requests).toBe(requests);
    expect(await balanceOf(t, poor.userID)).toBe(0);
    expect((await entriesOf(t, poor.userID, { kind: 'hold' })).map((e) => String(e.key).split(':')[0])).toEqual(['tasks-create']);
    const poorInfo: TaskInfo = (await as(t, poor).get(`/api/tasks?story_id=${pid}`)).body.data;
    expect(poorInfo).toMatchObject({ total_score: 0, total_forbidden_turns: 0 });
    expect(poorInfo.tasks_list[0]).toMatchObject({ score: 0, tasks_scored_at_turn: null });
    expect(poorInfo.tasks_list[0].targets.map((x) => x.completed)).toEqual([false, false]);
    expect((await as(t, poor).get(`/api/tasks/status/${pid}`)).body.data).toMatchObject({ running: null, list: [{ can_score: true }] });
    await noDrift();

    // A provider failure after the hold: the hold is released, nothing is completed, the turn can still be scored.
    const { id } = await storyWithGroup();
    await playLine(id, 'I find the lighthouse key under a loose stone.');
    await drain();
    const before = await balanceOf(t, alice.userID);
    const releases = (await entriesOf(t, alice.userID, { kind: 'release' })).length;
    stub.set({ httpStatus: 500 });
    const failed = await score(id, 0, { tasks_id: 1 });
    expect(failed.status).toBe(200);
    expect(ofType(failed.events, 'task_verdict')).toEqual([]);
    expect(failed.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.PROVIDER_ERROR });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before);
    expect(await entriesOf(t, alice.userID, { kind: 'release' })).toHaveLength(releases + 1);
    await noDrift();
    const after = await info(id);
    expect(after).toMatchObject({ total_score: 0, complete_task: 0, total_forbidden_turns: 0 });
    expect(after.tasks_list[0]).toMatchObject({ score: 0, tasks_scored_at_turn: null });
    expect(after.tasks_list[0].targets.map((x) => [x.completed, x.evidence])).toEqual([[false, ''], [false, '']]);
    // The request slot is free and the same turn is scored (and charged) once the provider answers.
    stub.set({ completionTokens: 200 });
    const retried = await score(id, 0, { tasks_id: 1 });
    expect(ofType(retried.events, 'task_scored')[0]).toMatchObject({ total_score: 2, current_turn: 1 });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before - 100);
    await noDrift();
  });

  it('edits targets (1 to 4, new ones get ids), names and relations; errors carry task number, field and reason', async () => {
    const { id, info: start } = await storyWithGroup();
    const group = start.tasks_list[0];
    const put = (groupId: number | string, body: UpdateTaskGroupDto) => as(t, alice).put(`/api/tasks/${id}/${groupId}`, body);

    // A new target copies the shape of the first with blank or zero values: the server says what is wrong.
    const blank = { ...targetsOf(group)[0], id: '', title: '', type: '' as never, score: 0, completed: false };
    const bad = await put(1, { targets: [...targetsOf(group), blank] });
    expect([bad.status, bad.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['targets.2.title', 'targets.2.type', 'targets.2.score']);
    expect(bad.body.details[0].rules).toEqual(['isNotEmpty']);

    const fresh = { id: '', title: 'Light the lamp', type: 'emotion', score: 1 } satisfies TaskTargetDto;
    const ok = await put(1, { targets: [...targetsOf(group), fresh], series_name: '  Lamps  ', main_character: 'Ilan' });
    expect(ok.status).toBe(200);
    const edited: TaskGroup = ok.body.data.tasks_list[0];
    expect(edited).toMatchObject({ series_name: 'Lamps', main_character: 'Ilan' });
    expect(edited.targets.map((x) => x.title)).toEqual(['Find the lighthouse key', "Earn the harbour master's trust", 'Light the lamp']);
    expect(edited.targets[0].id).toBe(group.targets[0].id);
    expect(edited.targets[2]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{12}$/), completed: false, original_probability: null });
    // Fields the server owns are not taken from the client.
    const sneaky = await put(1, { targets: [{ ...targetsOf(edited)[0], completed: true }, ...targetsOf(edited).slice(1)] });
    expect(sneaky.body.data.tasks_list[0].targets[0].completed).toBe(false);

    for (const count of [0, 5]) {
      const res = await put(1, { targets: Array.from({ length: count }, () => fresh) });
      expect([res.status, res.body.code]).toEqual([400, ErrorCode.TASK_TARGET_COUNT]);
    }
    expect((await put(1, { targets: Array.from({ length: 21 }, () => fresh) })).body.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect((await put(1, {})).body.code).toBe(ErrorCode.NOTHING_TO_UPDATE);
    expect((await put(9, { series_name: 'x' })).body.code).toBe(ErrorCode.TASKS_NOT_FOUND);
    expect((await put('abc', { series_name: 'x' })).status).toBe(404);
    expect((await put(1, { series_name: 'x', isAdmin: true } as never)).status).toBe(400);

    // Relations: mirrored, never to itself, only to groups of the story; saved one selector at a time.
    const batch = (await info(id)).suggestions!.batch;
    await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch, index: 1 });
    await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch, index: 2 });
    const linked = await put(2, { preceding_task_groups: [1, 1], subsequent_task_groups: [3] });
    expect(linked.status).toBe(200);
    const rel = (g: TaskGroup) => [g.tasks_id, g.preceding_task_groups, g.subsequent_task_groups];
    expect(linked.body.data.tasks_list.map(rel)).toEqual([[1, [], [2]], [2, [1], [3]], [3, [2], []]]);
    const unlinked = await put(2, { subsequent_task_groups: [] });
    expect(unlinked.body.data.tasks_list.map(rel)).toEqual([[1, [], [2]], [2, [1], []], [3, [], []]]);
    const self = await put(2, { preceding_task_groups: [2] });
    expect([self.status, self.body.code, self.body.details[0].field]).toEqual([400, ErrorCode.TASK_SELF_REFERENCE, 'preceding_task_groups']);
    const unknown = await put(2, { subsequent_task_groups: [7] });
    expect([unknown.status, unknown.body.code]).toEqual([404, ErrorCode.TASKS_NOT_FOUND]);
    expect((await put(2, { preceding_task_groups: [0] })).status).toBe(400);
  });

  it('scores: streams a verdict per open target, each completion cites its passage; once per turn', async () => {
    const { id } = await storyWithGroup();
    await playLine(id, 'I find the lighthouse key under a loose stone.');
    stub.set({ completionTokens: 200 });
    const before = await balanceOf(t, alice.userID);
    const res = await score(id, 0, { tasks_id: 1 });
    expect(res.status).toBe(200);
    const verdicts = ofType(res.events, 'task_verdict').map((e) => e.verdict);
    expect(verdicts).toEqual([
      {
        index: 0, target_id: expect.any(String), completed: true, evidence: 'Mara: I find the lighthouse key under a loose stone.',
        reason: 'The story shows it.', probability: 100, unproven: false,
      },
      { index: 1, target_id: expect.any(String), completed: false, evidence: '', reason: 'It has not happened yet.', probability: 40, unproven: false },
    ]);
    const scored = ofType(res.events, 'task_scored')[0];
    expect(scored).toMatchObject({ index: 0, total_score: 2, complete_task: 0, current_turn: 1 });
    expect(scored.group).toMatchObject({ score: 2, tasks_scored_at_turn: 1 });
    expect(scored.group.targets[0]).toMatchObject({ completed: true, complete_turn: 1, current_probability: 100, original_probability: 60 });
    expect(scored.group.targets[1]).toMatchObject({ completed: false, current_probability: 40, original_probability: 70 });
    // The judge saw the story and the open targets, numbered.
    const prompt = stub.bodies.at(-1)!.messages[1].content;
    expect(prompt).toContain('<targets-to-score>\n1. [reality] Find the lighthouse key\n2. [emotion] Earn the harbour master\'s trust\n</targets-to-score>');
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before - 100);

    // Same turn again: the already-scored warning, counted, nothing charged or asked.
    const requests = stub.requests;
    const again = await score(id, 0);
    expect([again.status, again.body?.code]).toEqual([409, ErrorCode.TASK_ALREADY_SCORED]);
    expect(stub.requests).toBe(requests);
    const after = await info(id);
    expect(after).toMatchObject({ total_score: 2, total_forbidden_turns: 1, current_turn: 1 });

    // Completed targets cannot be edited, left out, or their group deleted.
    const targets = targetsOf(after.tasks_list[0]);
    const renamed = await as(t, alice).put(`/api/tasks/${id}/1`, { targets: [{ ...targets[0], title: 'Lose the key' }, targets[1]] });
    expect([renamed.status, renamed.body.code, renamed.body.params, renamed.body.details[0].field]).toEqual([
      409, ErrorCode.TASK_COMPLETED, { task: 1, field: 'title' }, 'targets.0.title',
    ]);
    expect(renamed.body.message).toBe('Task 1: completed tasks cannot be edited or deleted.');
    const dropped = await as(t, alice).put(`/api/tasks/${id}/1`, { targets: [targets[1]] });
    expect([dropped.body.code, dropped.body.params.task]).toEqual([ErrorCode.TASK_COMPLETED, 1]);
    const open = await as(t, alice).put(`/api/tasks/${id}/1`, { targets: [targets[0], { ...targets[1], score: 3 }] });
    expect(open.status).toBe(200);
    const del = await as(t, alice).delete(`/api/tasks/${id}/0`).set('Accept-Language', 'zh-CN');
    expect([del.status, del.body.code, del.body.message]).toEqual([409, ErrorCode.TASK_COMPLETED, '任务 1：已完成的任务不能编辑或删除。']);

    // A new turn: the rest can be scored; when every target is done the group is complete.
    await playLine(id, "At last I earn the harbour master's trust.");
    const last = await score(id, 0);
    const done = ofType(last.events, 'task_scored')[0];
    expect(done).toMatchObject({ total_score: 5, complete_task: 1, current_turn: 2 });
    expect(stub.bodies.at(-1)!.messages[1].content).toContain("<targets-to-score>\n1. [emotion] Earn the harbour master's trust\n</targets-to-score>");
    expect((await info(id)).current_tasks_id).toBeNull();
    await drain();

    // A complete group has nothing left to score, on this turn or a later one: its own answer, not counted
    // as a refused turn, nothing asked or charged.
    const spent = await balanceOf(t, alice.userID);
    const asked = stub.requests;
    const nothing = await score(id, 0, { language: 'zh-CN' });
    expect([nothing.status, nothing.body?.code, nothing.body?.message]).toEqual([409, ErrorCode.TASK_NOTHING_TO_SCORE, '该任务组的任务已全部完成，没有可以评分的任务了。']);
    await playLine(id, 'The ferry arrives at last.');
    const later = await score(id, 0, { tasks_id: 1 });
    expect([later.status, later.body?.code, later.body?.message]).toEqual([409, ErrorCode.TASK_NOTHING_TO_SCORE, 'Every task of this group is completed: there is nothing left to score.']);
    expect(stub.requests).toBe(asked + 1); // the turn played above, no scoring
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(spent);
    expect(await info(id)).toMatchObject({ total_score: 5, complete_task: 1, total_forbidden_turns: 1, current_turn: 3 });
    expect((await as(t, alice).get(`/api/tasks/status/${id}`)).body.data.list[0]).toMatchObject({ can_score: false, completed_targets: 2, total_targets: 2 });
  });

  it('does not count a completion whose quote is not in the story', async () => {
    const { id, info: start } = await storyWithGroup();
    stub.set({
      completionTokens: 200,
      chunks: () => [JSON.stringify({ targets: [
        { index: 1, completed: true, evidence: 'Mara found the lighthouse key at dawn.', reason: 'She found it.', probability: 100 },
        { index: 2, completed: true, evidence: 'Mara waits at the pier.', reason: 'Trust.', probability: 90 },
      ] })],
    });
    const res = await score(id, 0);
    const verdicts = ofType(res.events, 'task_verdict').map((e) => e.verdict);
    expect(verdicts.map((v) => [v.completed, v.unproven])).toEqual([[false, true], [true, false]]);
    const group = ofType(res.events, 'task_scored')[0].group;
    expect(group.targets.map((x) => [x.completed, x.evidence])).toEqual([[false, ''], [true, 'Mara waits at the pier.']]);
    expect(group.score).toBe(start.tasks_list[0].targets[1].score);
  });

  it('deletes by index (guarded by tasks_id) and drops references to the group', async () => {
    const { id } = await storyWithGroup();
    const batch = (await info(id)).suggestions!.batch;
    await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch, index: 1 });
    await as(t, alice).put(`/api/tasks/${id}/2`, { preceding_task_groups: [1] });
    // A stale index (the client thought group 2 was first) deletes nothing.
    const stale = await as(t, alice).delete(`/api/tasks/${id}/0?tasks_id=2`);
    expect([stale.status, stale.body.code]).toEqual([404, ErrorCode.TASKS_NOT_FOUND]);
    const res = await as(t, alice).delete(`/api/tasks/${id}/0?tasks_id=1`);
    expect(res.status).toBe(200);
    expect(res.body.data.tasks_list.map((g: TaskGroup) => [g.tasks_id, g.preceding_task_groups])).toEqual([[2, []]]);
    expect(res.body.data.current_tasks_id).toBe(2);
    for (const index of ['1', '-1', 'x']) expect((await as(t, alice).delete(`/api/tasks/${id}/${index}`)).body.code).toBe(ErrorCode.TASKS_NOT_FOUND);
    expect((await as(t, alice).delete(`/api/tasks/${id}/0?tasks_id=abc`)).status).toBe(400);
    // Numbers are never reused.
    const readded = await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch, index: 2 });
    expect(readded.body.data.tasks_list.map((g: TaskGroup) => g.tasks_id)).toEqual([2, 3]);
  });

  it('puts the open targets of the current group into the prompt in the task modes, and none in free play', async () => {
    const { id } = await storyWithGroup({ goal: 'Leave the island' });
    const lastPrompt = () => stub.bodies.at(-1)!.messages[0].content;
    const play = async (mode: 'fly_free' | 'tasks_guider' | 'tasks_master') => {
      expect((await as(t, alice).patch(`/api/llm?id=${id}`, { play_mode: mode })).status).toBe(200);
      await unthrottle(t, id);
      await sendTurn(base, alice.token, id, { content: 'Go on', model_name: 'free', regenerate: true });
      return lastPrompt();
    };
    const free = await play('fly_free');
    expect(free).toContain('Play mode: free');
    expect(free).not.toContain('lighthouse key');
    const guide = await play('tasks_guider');
    expect(guide).toContain('Nudge the player toward the open goals below');
    expect(guide).toContain('Goal: Leave the island');
    expect(guide).toContain("Open goals:\n- (event) Find the lighthouse key\n- (feeling) Earn the harbour master's trust");
    const master = await play('tasks_master');
    expect(master).toContain('Drive the plot toward the open goals below');
    expect(master).toContain('- (event) Find the lighthouse key');
    // A completed target is no longer steered toward.
    await playLine(id, 'I find the lighthouse key.');
    await score(id, 0);
    expect(await play('tasks_master')).not.toContain('lighthouse key');
  });

  it('a story of an activity keeps its tasks and mode; scoring still works', async () => {
    const { id } = await storyWithGroup();
    await t.connection.db!.collection('stories').updateOne({ _id: new Types.ObjectId(id) }, { $set: { activity: '202402sf', activity_story_index: 1 } });
    expect((await info(id)).locked).toBe(true);
    const locked = [
      await suggest(id).then((r) => [r.status, r.body?.code]),
      await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch: '0123456789abcdef', index: 0 }).then((r) => [r.status, r.body.code]),
      await as(t, alice).put(`/api/tasks/${id}/1`, { series_name: 'Mine' }).then((r) => [r.status, r.body.code]),
      await as(t, alice).delete(`/api/tasks/${id}/0`).then((r) => [r.status, r.body.code]),
      await as(t, alice).patch(`/api/llm?id=${id}`, { play_mode: 'tasks_master' }).then((r) => [r.status, r.body.code]),
    ];
    expect(locked).toEqual(Array.from({ length: 5 }, () => [403, ErrorCode.TASKS_LOCKED]));
    expect((await storyDoc(t, id))!.play_mode).toBe('fly_free');
    expect((await as(t, alice).patch(`/api/llm?id=${id}`, { author_remark: 'fine' })).status).toBe(200);
    expect((await score(id, 0)).events.at(-1)?.type).toBe('done');
  });

  it('answers only the owner: another user, no token and malformed ids get nothing', async () => {
    const { id } = await storyWithGroup();
    const batch = (await info(id)).suggestions!.batch;
    const requests = stub.requests;
    const theirs = [
      await as(t, bob).get(`/api/tasks?story_id=${id}`),
      await as(t, bob).get(`/api/tasks/status/${id}`),
      await as(t, bob).post(`/api/tasks/${id}/add_new`, { batch, index: 1 }),
      await as(t, bob).put(`/api/tasks/${id}/1`, { series_name: 'Mine' }),
      await as(t, bob).delete(`/api/tasks/${id}/0`),
    ].map((r) => [r.status, r.body.code]);
    const streams = [await suggest(id, bob), await score(id, 0, {}, bob)].map((r) => [r.status, r.body?.code]);
    expect([...theirs, ...streams]).toEqual(Array.from({ length: 7 }, () => [404, ErrorCode.STORY_NOT_FOUND]));
    expect(stub.requests).toBe(requests);
    expect((await info(id)).tasks_list[0].series_name).toBe('Harbour secrets');
    expect((await as(t, alice).get(`/api/tasks?story_id=${id}`).set('Authorization', '')).status).toBe(401);
    expect((await as(t, alice).get('/api/tasks?story_id=nope')).body.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect((await as(t, alice).get('/api/tasks')).body.code).toBe(ErrorCode.VALIDATION_FAILED);
  });

  it('reports status for the 30-second poll: totals, rev and which groups can be scored', async () => {
    const { id } = await storyWithGroup();
    const first = (await as(t, alice).get(`/api/tasks/status/${id}`)).body.data;
    expect(first).toMatchObject({
      current_turn: 0, current_tasks_id: 1, total_score: 0, complete_task: 0, total_forbidden_turns: 0, running: null,
      list: [{ index: 0, tasks_id: 1, series_name: 'Harbour secrets', score: 0, max_score: 3, completed_targets: 0, total_targets: 2, tasks_scored_at_turn: null, can_score: true }],
    });
    await score(id, 0);
    const second = (await as(t, alice).get(`/api/tasks/status/${id}`)).body.data;
    expect(second.rev).toBeGreaterThan(first.rev);
    expect(second.list[0]).toMatchObject({ tasks_scored_at_turn: 0, can_score: false });
  });

  it("runs on the story's custom model with the user's own key, and charges no power", async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    const added = await as(t, alice).post('/api/custom-models', { model_name: 'Mine', base_url: stub.baseURL, api_key: 'sk-own-key-123', model_type: 'compatible_openai' });
    expect(added.status).toBe(201);
    expect((await as(t, alice).patch(`/api/llm?id=${id}`, { model_type: 'compatible_openai', model_name: 'Mine' })).status).toBe(200);
    const res = await suggest(id);
    expect(ofType(res.events, 'task_suggestions')[0].suggestions.groups).toHaveLength(3);
    expect(res.events.at(-2)).toMatchObject({ type: 'usage', cost: 0 });
    expect(stub.bodies.at(-1)!.model).toBe('Mine');
    expect(stub.keys.at(-1)).toBe('sk-own-key-123');
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(1000);
  });

  it('documents every task endpoint in Swagger with its DTO schemas', async () => {
    const doc = (await as(t, alice).get('/api/docs-json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/tasks', '/api/tasks/status/{id}', '/api/tasks/{id}/create', '/api/tasks/{id}/add_new', '/api/tasks/{id}/{groupId}', '/api/tasks/{id}/{index}', '/api/tasks/{id}/{index}/score']),
    );
    for (const [path, method, dto] of [
      ['/api/tasks/{id}/create', 'post', 'LocalizedDto'],
      ['/api/tasks/{id}/add_new', 'post', 'AddTaskGroupDto'],
      ['/api/tasks/{id}/{groupId}', 'put', 'UpdateTaskGroupDto'],
      ['/api/tasks/{id}/{index}/score', 'post', 'ScoreTaskGroupDto'],
    ]) {
      expect(doc.paths[path][method].requestBody.content['application/json'].schema.$ref).toBe(`#/components/schemas/${dto}`);
      expect(doc.components.schemas[dto]).toBeDefined();
    }
    expect(doc.components.schemas.TaskTargetDto.properties.title.maxLength).toBe(200);
    expect(doc.components.schemas.UpdateTaskGroupDto.properties.targets).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/TaskTargetDto' } });
  });

  it('the stub answers the task prompts it is given (its own contract)', () => {
    const answer = stubTaskAnswer({ model: 'x', messages: [{ role: 'user', content: '<story-text>\n我找到灯塔钥匙了。\n</story-text>\n\n<targets-to-score>\n1. [reality] 找到灯塔钥匙\n</targets-to-score>' }] });
    expect(answer).toContain('"completed":true');
    expect(answer).toContain('我找到灯塔钥匙了。');
    expect(stubTaskAnswer({ model: 'x', messages: [{ role: 'user', content: 'hello' }] })).toBeNull();
    const groups = stubTaskAnswer({ model: 'x', messages: [{ role: 'user', content: '<task-groups-request count="3">\n<story-text>\n玛拉\n</story-text>' }] });
    expect((JSON.parse(groups!.replace(/```(json)?/g, '')) as { groups: TaskSuggestions['groups'] }).groups[0].series_name).toBe('港口的秘密');
  });
});
