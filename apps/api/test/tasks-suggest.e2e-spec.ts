import { ErrorCode, type AddTaskGroupDto, type TaskGroup, type TaskSuggestions } from '@taleloom/contracts';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { ofType, postEvents } from './support/play-helpers';
import { stubTaskAnswer, type OpenAIStub } from './support/openai-stub';
import { PROLOGUE, tasksSuite } from './support/tasks-suite';
import type { TestApp } from './test-app';

describe('tasks: AI suggestions of task groups and accepting them (/api/tasks/{id}/create, add_new)', () => {
  const suite = tasksSuite();
  const { drain, suggest, score, info, storyWithGroup } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser;
  beforeEach(() => void ({ t, stub, base, alice } = suite));

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

  it('the stub answers the task prompts it is given (its own contract)', () => {
    const answer = stubTaskAnswer({ model: 'x', messages: [{ role: 'user', content: '<story-text>\n我找到灯塔钥匙了。\n</story-text>\n\n<targets-to-score>\n1. [reality] 找到灯塔钥匙\n</targets-to-score>' }] });
    expect(answer).toContain('"completed":true');
    expect(answer).toContain('我找到灯塔钥匙了。');
    expect(stubTaskAnswer({ model: 'x', messages: [{ role: 'user', content: 'hello' }] })).toBeNull();
    const groups = stubTaskAnswer({ model: 'x', messages: [{ role: 'user', content: '<task-groups-request count="3">\n<story-text>\n玛拉\n</story-text>' }] });
    expect((JSON.parse(groups!.replace(/```(json)?/g, '')) as { groups: TaskSuggestions['groups'] }).groups[0].series_name).toBe('港口的秘密');
  });
});
