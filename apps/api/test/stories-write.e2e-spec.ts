import {
  DEFAULT_STORY_SETTINGS,
  ErrorCode,
  STORY_TEXT_MAX_LENGTH,
  mainTextEdit,
  type CreateStoryDto,
  type RenameStoryDto,
  type UpdateStoryDto,
} from '@taleloom/contracts';
import request from 'supertest';
import { as, createStory, type TestUser } from './story-factories';
import type { TestApp } from './test-app';
import { appSuite } from './support/app-suite';

describe('stories: create, change, rename', () => {
  const suite = appSuite();
  let t: TestApp, alice: TestUser;
  beforeEach(() => void ({ t, alice } = suite));

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
});
