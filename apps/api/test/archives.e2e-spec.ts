import { ErrorCode, type LoadArchiveDto, type SaveArchiveDto, type UpdateStoryDto } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { TurnRunner } from '../src/play/turn.runner';
import { listenOnLoopback, sendTurn, storyDoc, textOf } from './support/play-helpers';
import { as, createStory, publishedStory, signUp, type TestUser } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

describe('archives (GET /api/archive/{storyId}, POST /api/archive/save, POST /api/archive/load)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const save = (user: TestUser, body: SaveArchiveDto) => as(t, user).post('/api/archive/save', body);
  const load = (user: TestUser, body: LoadArchiveDto) => as(t, user).post('/api/archive/load', body);
  const setText = (user: TestUser, id: string, main_text: string) =>
    as(t, user).patch(`/api/llm?id=${id}`, { main_text } satisfies UpdateStoryDto);
  const stillServing = async () => expect((await as(t, alice).get('/api/health')).status).toBe(200);

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.clean();
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(() => t.close());

  it('saves into slots 0 and 998 with time, word count and ending, and lists them in slot order', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: '雨夜。\n她推开门。' });
    const before = Math.floor(Date.now() / 1000);
    const last = await save(alice, { story_id: id, archive_index: 998 });
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      story_id: id,
      archive_index: 998,
      time: expect.any(Number),
      current_word_count: 9,
      story_ending: '她推开门。',
    });
    expect(last.body.data.time).toBeGreaterThanOrEqual(before);
    await save(alice, { story_id: id, archive_index: 0 });
    const list = await as(t, alice).get(`/api/archive/${id}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { archive_index: number }) => a.archive_index)).toEqual([0, 998]);
    expect(JSON.stringify(list.body.data)).not.toContain('main_text');
  });

  it('overwrites a slot in place and restores the full state on load, as a recovery point', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Chapter one.' });
    await as(t, alice).patch(`/api/llm?id=${id}`, { play_mode: 'tasks_master' } satisfies UpdateStoryDto);
    await save(alice, { story_id: id, archive_index: 3 });
    await setText(alice, id, 'Chapter one.\nChapter two.');
    const second = await save(alice, { story_id: id, archive_index: 3 });
    expect(second.body.data.current_word_count).toBe('Chapter one.\nChapter two.'.length);
    expect(await t.connection.db!.collection('story_archives').countDocuments({ story_id: id, archive_index: 3 })).toBe(1);

    await setText(alice, id, 'Something else entirely.');
    await as(t, alice).patch(`/api/llm?id=${id}`, { play_mode: 'fly_free' } satisfies UpdateStoryDto);
    const res = await load(alice, { archive_id: second.body.data._id });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ story_id: id, archive_index: 3 });
    const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
    expect(story).toMatchObject({
      main_text: 'Chapter one.\nChapter two.',
      play_mode: 'tasks_master',
      recovery_point: true,
      recovery_point_id: second.body.data._id,
    });
    const item = (await as(t, alice).get('/api/user/story-list')).body.data.list[0];
    expect(item).toMatchObject({ recovery_point: true, 'last-line': 'Chapter two.' });
  });

  it('keeps one document per slot under 10 concurrent saves of the same slot', async () => {
    const id = await createStory(t, alice);
    const results = await Promise.all(Array.from({ length: 10 }, () => save(alice, { story_id: id, archive_index: 7 })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.data._id)).size).toBe(1);
    expect(await t.connection.db!.collection('story_archives').countDocuments({ story_id: id, archive_index: 7 })).toBe(1);
  });

  it('lists the public archive -1 of a published story beside the saves, and loads it', async () => {
    const id = await publishedStory(t, alice, { prologue_and_characters: 'Published text.' });
    await save(alice, { story_id: id, archive_index: 1 });
    const list = (await as(t, alice).get(`/api/archive/${id}`)).body.data;
    expect(list.map((a: { archive_index: number }) => a.archive_index)).toEqual([-1, 1]);
    await setText(alice, id, 'Changed after publishing.');
    expect((await load(alice, { archive_id: list[0]._id })).status).toBe(200);
    expect((await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text).toBe('Published text.');
  });

  it('refuses slots 999 and -2 (and -1, which only publishing writes) with a coded 400', async () => {
    const id = await createStory(t, alice);
    for (const archive_index of [999, -2, -1, 1.5]) {
      const res = await save(alice, { story_id: id, archive_index });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(res.body.details[0].field).toBe('archive_index');
    }
    const str = await as(t, alice).post('/api/archive/save', { story_id: id, archive_index: '5' });
    expect(str.status).toBe(400);
    expect(await t.connection.db!.collection('story_archives').countDocuments()).toBe(0);
    await stillServing();
  });

  it("does not let another user list, save over or load someone's archive", async () => {
    const id = await publishedStory(t, alice, { prologue_and_characters: 'Alice only.' });
    const saved = (await save(alice, { story_id: id, archive_index: 0 })).body.data;
    const bobStory = await createStory(t, bob, { prologue_and_characters: 'Bob only.' });

    const list = await as(t, bob).get(`/api/archive/${id}`);
    expect(list.status).toBe(404);
    expect(list.body.code).toBe(ErrorCode.STORY_NOT_FOUND);

    const over = await save(bob, { story_id: id, archive_index: 0 });
    expect(over.status).toBe(404);
    expect(over.body.code).toBe(ErrorCode.STORY_NOT_FOUND);

    const loaded = await load(bob, { archive_id: saved._id });
    expect(loaded.status).toBe(404);
    expect(loaded.body.code).toBe(ErrorCode.ARCHIVE_NOT_FOUND);

    // Alice's archive and story are untouched; Bob's own story too.
    const after = (await as(t, alice).get(`/api/archive/${id}`)).body.data;
    expect(after.find((a: { archive_index: number }) => a.archive_index === 0)).toEqual(saved);
    expect((await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text).toBe('Alice only.');
    expect((await as(t, bob).get(`/api/llm?id=${bobStory}`)).body.data.main_text).toBe('Bob only.');
  });

  it('answers unknown and malformed ids with 404 and bad bodies with 400', async () => {
    expect((await as(t, alice).get(`/api/archive/${new Types.ObjectId().toHexString()}`)).status).toBe(404);
    expect((await as(t, alice).get('/api/archive/not-an-id')).status).toBe(404);
    const missing = await load(alice, { archive_id: new Types.ObjectId().toHexString() });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(ErrorCode.ARCHIVE_NOT_FOUND);
    expect((await load(alice, { archive_id: 'nope' })).status).toBe(400);
    const noStory = await save(alice, { story_id: new Types.ObjectId().toHexString(), archive_index: 0 });
    expect(noStory.status).toBe(404);
    const extra = await as(t, alice).post('/api/archive/save', { story_id: new Types.ObjectId().toHexString(), archive_index: 0, userID: 'x' });
    expect(extra.status).toBe(400);
    expect((await as(t, alice).get(`/api/archive/x`).set('Authorization', '')).status).toBe(401);
  });

  it('refuses to load an archive while a turn is being written (409 GENERATION_IN_PROGRESS, both languages), and loads after it', async () => {
    const base = await listenOnLoopback(t);
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.', model_name: 'demo' });
    const slot = (await save(alice, { story_id: id, archive_index: 0 })).body.data._id as string;
    const refusals: Promise<{ status: number; body: { code?: string; message?: string } }>[] = [];
    const res = await sendTurn(base, alice.token, id, { content: 'Mara: I open the door.' }, undefined, {
      onEvent: (e, n) => {
        if (e.type !== 'delta' || n !== 2) return;
        // Started now, mid-stream (a supertest request starts when it is awaited).
        for (const language of ['en', 'zh-CN'] as const) refusals.push(Promise.resolve(load(alice, { archive_id: slot, language })));
      },
    });
    expect(textOf(res.events).length).toBeGreaterThan(0);
    const [en, zh] = await Promise.all(refusals);
    expect([en.status, en.body.code, zh.status, zh.body.code]).toEqual([409, ErrorCode.GENERATION_IN_PROGRESS, 409, ErrorCode.GENERATION_IN_PROGRESS]);
    expect(en.body.message).toContain('still being written');
    expect(zh.body.message).toContain('正在生成');
    // Nothing was restored: the story is not a recovery point.
    expect((await storyDoc(t, id))?.recovery_point).not.toBe(true);
    await t.app.get(TurnRunner).drain();
    // Once the turn is written the same load goes through.
    expect((await load(alice, { archive_id: slot })).status).toBe(200);
    expect((await storyDoc(t, id))?.recovery_point).toBe(true);
  });

  it('shows the restore point to its owner only: my stories say so, the square does not (to anyone)', async () => {
    const id = await publishedStory(t, alice, { prologue_and_characters: 'Chapter one.' });
    const slot = (await save(alice, { story_id: id, archive_index: 1 })).body.data._id as string;
    expect((await load(alice, { archive_id: slot })).status).toBe(200);
    const item = (list: { id: string; recovery_point: boolean }[]) => list.find((s) => s.id === id)!;
    expect(item((await as(t, alice).get('/api/user/story-list')).body.data.list).recovery_point).toBe(true);
    for (const user of [alice, bob]) {
      expect(item((await as(t, user).get('/api/user/story-list?public=true')).body.data.list).recovery_point).toBe(false);
    }
  });
});
