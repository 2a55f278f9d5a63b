import {
  ErrorCode,
  mainTextEdit,
  type ClonePublicStoryDto,
  type RenameStoryDto,
  type StoryListItem,
  type UpdateStoryDto,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import request from 'supertest';
import { as, createStory, publishedStory, type TestUser } from './story-factories';
import type { TestApp } from './test-app';
import { appSuite } from './support/app-suite';

describe('stories: visibility, other users, ids, the story list and Swagger', () => {
  const suite = appSuite();
  let t: TestApp, alice: TestUser, bob: TestUser;
  beforeEach(() => void ({ t, alice, bob } = suite));

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
});
