import {
  DEFAULT_STORY_SETTINGS,
  ErrorCode,
  STORY_TEXT_MAX_LENGTH,
  mainTextEdit,
  type ClonePublicStoryDto,
  type CreateStoryDto,
  type RenameStoryDto,
  type StoryListItem,
  type UpdateStoryDto,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import request from 'supertest';
import { as, createStory, publishedStory, signUp, type TestUser } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

describe('stories: create, read, change, list', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.clean();
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(() => t.close());

  describe('POST /api/llm (create)', () => {
    it('creates a story with the defaults and a sequential storyNo', async () => {
      const res = await as(t, alice).post('/api/llm', {
        name: 'The Dragon',
        prologue_and_characters: 'A dragon sleeps.\nA knight arrives.\nThe dragon wakes.',
        goal: 'Survive',
        role: 'Knight',
      } satisfies CreateStoryDto);
      expect(res.status).toBe(201);
      const id = res.body.data.id;
      const story = await as(t, alice).get(`/api/llm?id=${id}`);
      expect(story.status).toBe(200);
      expect(story.body.data).toMatchObject({
        id,
        storyNo: 1,
        userID: alice.userID,
        name: 'The Dragon',
        main_text: 'A dragon sleeps.\nA knight arrives.\nThe dragon wakes.',
        prologue_and_characters: 'A dragon sleeps.\nA knight arrives.\nThe dragon wakes.',
        goal: 'Survive',
        role: 'Knight',
        author: 'alice',
        writer: 'alice',
        play_mode: 'fly_free',
        permission: '0',
        level: 0,
        clonedFrom: null,
        pinToTop: false,
        recovery_point: false,
        isOwner: true,
        ...DEFAULT_STORY_SETTINGS,
      });
      const second = await createStory(t, alice);
      expect((await as(t, alice).get(`/api/llm?id=${second}`)).body.data.storyNo).toBe(2);
    });

    it('stores an empty name as untitled (the web shows it translated) and takes a play mode', async () => {
      const id = await createStory(t, alice, { name: '', play_mode: 'tasks_master' });
      const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
      expect(story.name).toBe('');
      expect(story.play_mode).toBe('tasks_master');
      const noName = await createStory(t, alice, { name: undefined });
      expect((await as(t, alice).get(`/api/llm?id=${noName}`)).body.data.name).toBe('');
    });

    it.each([
      [{ name: 'A', prologue_and_characters: 'x' }, ['name']],
      [{ name: 'n'.repeat(201), prologue_and_characters: 'x' }, ['name']],
      [{ name: 'Fine' }, ['prologue_and_characters']],
      [{ name: 'Fine', prologue_and_characters: '' }, ['prologue_and_characters']],
      [{ prologue_and_characters: 'x', role: 'r'.repeat(51) }, ['role']],
      [{ prologue_and_characters: 'x', play_mode: 'wild' }, ['play_mode']],
      [{ prologue_and_characters: 'x', settings_pic_size: '100*100' }, ['settings_pic_size']],
      [{ prologue_and_characters: 'x', userID: 'someone' }, ['userID']],
    ])('rejects %j with 400 naming %j', async (body, fields) => {
      const res = await as(t, alice).post('/api/llm', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(fields);
      expect(await t.connection.db!.collection('stories').countDocuments()).toBe(0);
    });

    it('accepts a 200-character name and a 50-character role', async () => {
      const id = await createStory(t, alice, { name: 'n'.repeat(200), role: 'r'.repeat(50) });
      expect((await as(t, alice).get(`/api/llm?id=${id}`)).body.data.name).toHaveLength(200);
    });

    it('requires a token', async () => {
      const res = await request(t.app.getHttpServer()).post('/api/llm').send({ prologue_and_characters: 'x' });
      expect(res.status).toBe(401);
    });
  });

  describe('PATCH /api/llm?id (change)', () => {
    it('changes the text and keeps the list snippets in step', async () => {
      const id = await createStory(t, alice);
      const res = await as(t, alice).patch(`/api/llm?id=${id}`, {
        main_text: 'First line here.\n\nMiddle.\nLast line now.\n',
      } satisfies UpdateStoryDto);
      expect(res.status).toBe(200);
      expect(res.body.data.main_text).toBe('First line here.\n\nMiddle.\nLast line now.\n');
      const item = (await as(t, alice).get(`/api/user/story?id=${id}`)).body.data;
      expect(item['first-line']).toBe('First line here.');
      expect(item['last-line']).toBe('Last line now.');
    });

    it('changes play mode, model fields, settings and name, each validated', async () => {
      const id = await createStory(t, alice);
      const body = {
        play_mode: 'tasks_guider',
        model_name: 'demo',
        model_type: 'platform',
        settings_camera_switch: false,
        settings_pic_size: '1024*1024',
        settings_system_prompt_switch: 'custom',
        settings_system_prompt_text: 'Be terse.',
        name: 'Renamed',
      } satisfies UpdateStoryDto;
      const res = await as(t, alice).patch(`/api/llm?id=${id}`, body);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject(body);
      for (const bad of [
        { play_mode: 'nope' },
        { settings_camera_switch: 'yes' },
        { name: 'x' },
        { model_name: 'm'.repeat(129) },
        { permission: '1' },
        { level: 0 },
      ]) {
        const r = await as(t, alice).patch(`/api/llm?id=${id}`, bad);
        expect(r.status).toBe(400);
        expect(r.body.details[0].field).toBe(Object.keys(bad)[0]);
      }
    });

    it('changes one part of a long text (main_text_edit), and answers without the text when asked (Prefer: return=minimal)', async () => {
      const id = await createStory(t, alice);
      const long = Array.from({ length: 3000 }, (_, i) => `Passage ${i}: the lamp burns low in the tower.`).join('\n');
      await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: long }).expect(200);
      // A typo fixed in the middle, then the ending rewritten: each request carries only the change.
      const fixed = long.replace('Passage 1500: the lamp', 'Passage 1500: the old lamp');
      const typo = mainTextEdit(long, fixed);
      expect(typo).toEqual({ at: long.indexOf('lamp', long.indexOf('Passage 1500:')), removed: '', inserted: 'old ', base_length: long.length });
      const res = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: typo } satisfies UpdateStoryDto).set('Prefer', 'return=minimal');
      expect(res.status).toBe(200);
      expect(res.headers['preference-applied']).toBe('return=minimal');
      expect(res.body.data).not.toHaveProperty('main_text');
      expect(res.body.data).toMatchObject({ id, name: 'A tale', isOwner: true, main_text_length: fixed.length });
      expect(Number(res.headers['content-length'])).toBeLessThan(4000);
      const ended = `${fixed}\nThe tower falls silent.`;
      const ending = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: mainTextEdit(fixed, ended) });
      // Without the preference the whole record comes back, as for main_text.
      expect(ending.status).toBe(200);
      expect(ending.body.data.main_text).toBe(ended);
      expect((await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text).toBe(ended);
      expect((await as(t, alice).get(`/api/user/story?id=${id}`)).body.data['last-line']).toBe('The tower falls silent.');
      // Any other change answers without the text too when asked.
      const renamed = await as(t, alice).patch(`/api/llm?id=${id}`, { name: 'The tower' }).set('Prefer', 'handling=lenient, return=minimal');
      expect(renamed.body.data).toMatchObject({ name: 'The tower', main_text_length: ended.length });
      expect(renamed.body.data).not.toHaveProperty('main_text');
    });

    it('refuses an edit made on a text that changed since (a turn accepted meanwhile): 409 STORY_TEXT_CHANGED, nothing written', async () => {
      const id = await createStory(t, alice);
      const base = 'Once upon a time.\nThe end is near.';
      const edit = mainTextEdit(base, 'Once upon a time.\nThe end is far.');
      await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mara: Wait.', newContent: 'The door creaks.' }).expect(200);
      const after = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text as string;
      const res = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: edit }).set('Accept-Language', 'zh-CN');
      expect([res.status, res.body.code]).toEqual([409, ErrorCode.STORY_TEXT_CHANGED]);
      expect(res.body.message).toContain('请重新读取后再修改');
      // Same length but other characters where the edit goes: refused as well.
      const sameLength = { ...mainTextEdit(after, after.replace('near', 'here')), removed: 'xxxx' };
      expect((await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: sameLength })).body.code).toBe(ErrorCode.STORY_TEXT_CHANGED);
      expect((await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text).toBe(after);
      // Made on the text as it is now, it goes through.
      const now = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: mainTextEdit(after, after.replace('near', 'far')) });
      expect(now.body.data.main_text).toBe(after.replace('near', 'far'));
    });

    it('refuses a bad edit: a malformed one, beside main_text, past the end of the text or over the length limit', async () => {
      const id = await createStory(t, alice);
      const base = 'Once upon a time.\nThe end is near.';
      for (const bad of [
        { main_text_edit: { at: 0, removed: '', inserted: 'x' } },
        { main_text_edit: { at: -1, removed: '', inserted: 'x', base_length: base.length } },
        { main_text_edit: 'Once' },
        { main_text_edit: mainTextEdit(base, 'Twice'), main_text: 'Twice' },
      ]) {
        const r = await as(t, alice).patch(`/api/llm?id=${id}`, bad);
        expect([r.status, r.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
        expect(r.body.details[0].field).toMatch(/^main_text_edit\b/);
      }
      const past = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: { at: base.length, removed: 'x', inserted: '', base_length: base.length } });
      expect(past.body.code).toBe(ErrorCode.STORY_TEXT_CHANGED);
      const tooLong = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: mainTextEdit(base, base + 'x'.repeat(STORY_TEXT_MAX_LENGTH)) });
      expect([tooLong.status, tooLong.body.code]).toEqual([413, ErrorCode.STORY_TEXT_TOO_LONG]);
      expect((await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text).toBe(base);
    });

    it('answers 400 NOTHING_TO_UPDATE for an empty body', async () => {
      const id = await createStory(t, alice);
      const res = await as(t, alice).patch(`/api/llm?id=${id}`, {});
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ErrorCode.NOTHING_TO_UPDATE);
    });
  });

  describe('publish and private at the same time', () => {
    it('never leaves a public story without its public version (slot -1)', async () => {
      const id = await createStory(t, alice, { prologue_and_characters: 'A race at the gate.' });
      const archives = t.connection.db!.collection('story_archives');
      for (let round = 0; round < 25; round++) {
        const calls = Array.from({ length: 8 }, (_, i) =>
          as(t, alice).post(`/api/user/${(i + round) % 2 ? 'private' : 'public'}/${id}`),
        );
        const answers = await Promise.all(calls.map((c) => c.then((r) => r.status)));
        expect(answers).toEqual(Array(8).fill(200));
        const story = await t.connection.db!.collection('stories').findOne({ _id: new Types.ObjectId(id) });
        const slot = await archives.findOne({ story_id: id, archive_index: -1 });
        if (story!.permission === '1') expect(slot).not.toBeNull();
      }
    });
  });

  describe('another user, on every id-taking endpoint of a private story', () => {
    let id: string;
    beforeEach(async () => {
      id = await createStory(t, alice, { name: 'Secret' });
    });

    it.each([
      ['read the record', (u: TestUser) => as(t, u).get(`/api/llm?id=${id}`)],
      ['read the item', (u: TestUser) => as(t, u).get(`/api/user/story?id=${id}`)],
      ['check it', (u: TestUser) => as(t, u).get(`/api/user/check-story/${id}`)],
      ['rename it', (u: TestUser) => as(t, u).patch('/api/user/story', { id, storyName: 'Mine now' } satisfies RenameStoryDto)],
      ['change it', (u: TestUser) => as(t, u).patch(`/api/llm?id=${id}`, { main_text: 'hijacked' } satisfies UpdateStoryDto)],
      [
        'change part of its text',
        (u: TestUser) => as(t, u).patch(`/api/llm?id=${id}`, { main_text_edit: mainTextEdit('Once upon a time.\nThe end is near.', 'Hijacked') }),
      ],
      ['publish it', (u: TestUser) => as(t, u).post(`/api/user/public/${id}`)],
      ['make it private', (u: TestUser) => as(t, u).post(`/api/user/private/${id}`)],
      ['clone it as owner', (u: TestUser) => as(t, u).post(`/api/llm/${id}/clone`)],
      [
        'clone it as public',
        (u: TestUser) =>
          as(t, u).post('/api/user/clone-public-story', { userID: alice.userID, storyID: id } satisfies ClonePublicStoryDto),
      ],
    ])('cannot %s (404 STORY_NOT_FOUND), and nothing changes', async (_what, call) => {
      const res = await call(bob);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(ErrorCode.STORY_NOT_FOUND);
      const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
      expect(story).toMatchObject({ name: 'Secret', permission: '0', main_text: 'Once upon a time.\nThe end is near.' });
      expect(await t.connection.db!.collection('stories').countDocuments()).toBe(1);
    });

    it('does not list it, neither in their stories nor in the square', async () => {
      const mine = await as(t, bob).get('/api/user/story-list');
      const square = await as(t, bob).get('/api/user/story-list?public=true');
      expect(mine.body.data.list).toEqual([]);
      expect(square.body.data.list).toEqual([]);
    });

    it('cannot change it after publication either: only read and clone the public version', async () => {
      await as(t, alice).post(`/api/user/public/${id}`).expect(200);
      await as(t, bob).patch(`/api/llm?id=${id}`, { main_text: 'x' }).expect(404);
      await as(t, bob).patch('/api/user/story', { id, storyName: 'Mine now' }).expect(404);
      await as(t, bob).post(`/api/user/private/${id}`).expect(404);
      await as(t, bob).post(`/api/user/public/${id}`).expect(404);
      await as(t, bob).post(`/api/llm/${id}/clone`).expect(404);
      const read = await as(t, bob).get(`/api/llm?id=${id}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ isOwner: false, name: 'Secret', permission: '1' });
    });
  });

  it.each(['not-an-id', '123', 'zzzzzzzzzzzzzzzzzzzzzzzz', new Types.ObjectId().toHexString()])(
    'answers 404, never 500, for the id %s',
    async (bad) => {
      for (const res of [
        await as(t, alice).get(`/api/llm?id=${bad}`),
        await as(t, alice).get(`/api/user/story?id=${bad}`),
        await as(t, alice).get(`/api/user/check-story/${bad}`),
        await as(t, alice).patch(`/api/llm?id=${bad}`, { name: 'Valid' }),
        await as(t, alice).patch('/api/user/story', { id: bad, storyName: 'Valid' }),
        await as(t, alice).post(`/api/user/public/${bad}`),
        await as(t, alice).post(`/api/user/private/${bad}`),
        await as(t, alice).post(`/api/llm/${bad}/clone`),
        await as(t, alice).post('/api/user/clone-public-story', { userID: bad, storyID: bad }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(ErrorCode.STORY_NOT_FOUND);
      }
    },
  );

  it('documents every story endpoint in Swagger with its DTO schemas', async () => {
    const doc = (await request(t.app.getHttpServer()).get('/api/docs-json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/llm',
        '/api/llm/{id}/clone',
        '/api/user/story-list',
        '/api/user/check-story/{id}',
        '/api/user/clone-public-story',
        '/api/user/story',
        '/api/user/public/{id}',
        '/api/user/private/{id}',
      ]),
    );
    expect(doc.paths['/api/llm'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreateStoryDto',
    );
    expect(doc.components.schemas.CreateStoryDto.required).toEqual(['prologue_and_characters']);
    expect(doc.components.schemas.CreateStoryDto.properties.role.maxLength).toBe(50);
    expect(doc.paths['/api/llm'].patch.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/user/story-list'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'page',
      'pageSize',
      'public',
      'search',
    ]);
  });

  describe('PATCH /api/user/story (rename)', () => {
    it('renames, and an empty name makes it untitled', async () => {
      const id = await createStory(t, alice);
      const res = await as(t, alice).patch('/api/user/story', { id, storyName: 'New name' } satisfies RenameStoryDto);
      expect(res.status).toBe(200);
      expect(res.body.data.name).toBe('New name');
      await as(t, alice).patch('/api/user/story', { id, storyName: '' }).expect(200);
      expect((await as(t, alice).get(`/api/user/story?id=${id}`)).body.data.name).toBe('');
      const bad = await as(t, alice).patch('/api/user/story', { id, storyName: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].field).toBe('storyName');
    });
  });

  describe('GET /api/user/story-list', () => {
    const names = (list: StoryListItem[]) => list.map((s) => s.name);

    it('lists my stories newest first with every list-item field and no text', async () => {
      const first = await createStory(t, alice, { name: 'First' });
      await new Promise((r) => setTimeout(r, 5));
      await createStory(t, alice, { name: 'Second' });
      await createStory(t, bob, { name: 'Bobs' });
      const res = await as(t, alice).get('/api/user/story-list');
      expect(res.status).toBe(200);
      expect(names(res.body.data.list)).toEqual(['Second', 'First']);
      expect(res.body.data.pagination).toEqual({ page: 1, pageSize: 20, hasMore: false });
      const item = res.body.data.list[1];
      expect(item).toEqual({
        id: first,
        name: 'First',
        level: 0,
        clonedFrom: null,
        storyNo: 1,
        time: expect.any(Number),
        userID: alice.userID,
        permission: '0',
        pinToTop: false,
        recovery_point: false,
        'first-line': 'Once upon a time.',
        'last-line': 'The end is near.',
        unique_user_count: 0,
        penetration_story_total_rounds: 0,
        story_average_rounds: 0,
        additional_story_count: 0,
        story_average_count: 0,
      });
      expect(Math.abs(item.time - Date.now() / 1000)).toBeLessThan(60);
      expect(JSON.stringify(res.body)).not.toContain('main_text');
    });

    it('puts pinned stories first, then newest, in both lists', async () => {
      for (const name of ['Old', 'Pinned', 'New']) {
        await publishedStory(t, alice, { name });
        await new Promise((r) => setTimeout(r, 5));
      }
      await t.connection.db!.collection('stories').updateOne({ name: 'Pinned' }, { $set: { pinToTop: true } });
      expect(names((await as(t, alice).get('/api/user/story-list')).body.data.list)).toEqual(['Pinned', 'New', 'Old']);
      expect(names((await as(t, bob).get('/api/user/story-list?public=true')).body.data.list)).toEqual([
        'Pinned',
        'New',
        'Old',
      ]);
    });

    it('pages', async () => {
      for (let i = 1; i <= 5; i++) {
        await createStory(t, alice, { name: `Story ${i}` });
        await new Promise((r) => setTimeout(r, 3));
      }
      const page2 = await as(t, alice).get('/api/user/story-list?page=2&pageSize=2');
      expect(names(page2.body.data.list)).toEqual(['Story 3', 'Story 2']);
      expect(page2.body.data.pagination).toEqual({ page: 2, pageSize: 2, hasMore: true });
      const page3 = await as(t, alice).get('/api/user/story-list?page=3&pageSize=2');
      expect(names(page3.body.data.list)).toEqual(['Story 1']);
      expect(page3.body.data.pagination).toEqual({ page: 3, pageSize: 2, hasMore: false });
      const exact = await as(t, alice).get('/api/user/story-list?page=1&pageSize=5');
      expect(exact.body.data.pagination.hasMore).toBe(false);
      const past = await as(t, alice).get('/api/user/story-list?page=9&pageSize=2');
      expect(past.body.data.list).toEqual([]);
      for (const bad of ['page=0', 'pageSize=51', 'page=x', 'public=yes', 'sort=name']) {
        expect((await as(t, alice).get(`/api/user/story-list?${bad}`)).status).toBe(400);
      }
    });

    it('searches by a part of the name, case-insensitively, with regex characters taken literally', async () => {
      await createStory(t, alice, { name: 'The Dragon King' });
      await createStory(t, alice, { name: 'Dragons (part 2)' });
      await createStory(t, alice, { name: 'Sea story' });
      await publishedStory(t, bob, { name: 'dragon of Bob' });
      const mine = await as(t, alice).get('/api/user/story-list?search=DRAGON');
      expect(names(mine.body.data.list).sort()).toEqual(['Dragons (part 2)', 'The Dragon King']);
      const literal = await as(t, alice).get(`/api/user/story-list?search=${encodeURIComponent('(part 2)')}`);
      expect(names(literal.body.data.list)).toEqual(['Dragons (part 2)']);
      expect((await as(t, alice).get('/api/user/story-list?search=.*')).body.data.list).toEqual([]);
      const square = await as(t, alice).get('/api/user/story-list?public=true&search=dragon');
      expect(names(square.body.data.list)).toEqual(['dragon of Bob']);
    });
  });
});
