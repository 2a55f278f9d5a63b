import { ErrorCode, type TaskGroup, type TaskTargetDto, type UpdateTaskGroupDto } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { as, type TestUser } from './story-factories';
import { storyDoc } from './support/play-helpers';
import type { OpenAIStub } from './support/openai-stub';
import { targetsOf, tasksSuite } from './support/tasks-suite';
import type { TestApp } from './test-app';

describe('tasks: editing and deleting groups, locked activities, access and docs (/api/tasks)', () => {
  const suite = tasksSuite();
  const { suggest, score, info, storyWithGroup } = suite;
  let t: TestApp, stub: OpenAIStub, alice: TestUser, bob: TestUser;
  beforeEach(() => void ({ t, stub, alice, bob } = suite));

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
});
