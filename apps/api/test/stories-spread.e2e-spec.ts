import { charCount, ErrorCode, type ClonePublicStoryDto, type StoryListItem, type UpdateStoryDto } from '@taleloom/contracts';
import { StoriesService } from '../src/stories/stories.service';
import { StoryNumbersService } from '../src/stories/story-numbers.service';
import { as, createStory, publishedStory, signUp, type TestUser } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

describe('stories: publish, private, clone and the square counters', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let service: StoriesService;

  const clonePublic = (u: TestUser, owner: TestUser, storyID: string) =>
    as(t, u).post('/api/user/clone-public-story', { userID: owner.userID, storyID } satisfies ClonePublicStoryDto);
  const square = async (u: TestUser): Promise<StoryListItem[]> =>
    (await as(t, u).get('/api/user/story-list?public=true')).body.data.list;
  const item = async (u: TestUser, id: string): Promise<StoryListItem> =>
    (await as(t, u).get(`/api/user/story?id=${id}`)).body.data;

  beforeAll(async () => {
    t = await createTestApp();
    service = t.app.get(StoriesService);
  });
  beforeEach(async () => {
    await t.clean();
    [alice, bob, carol] = [await signUp(t, 'alice'), await signUp(t, 'bob'), await signUp(t, 'carol')];
  });
  afterAll(() => t.close());

  it('publishing snapshots the story into archive slot -1 and shows it in the square', async () => {
    const id = await createStory(t, alice, { name: 'Shared' });
    const res = await as(t, alice).post(`/api/user/public/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.permission).toBe('1');
    const archive = await t.connection.db!.collection('story_archives').findOne({ archive_index: -1 });
    expect(archive).toMatchObject({
      archive_index: -1,
      current_word_count: 'Once upon a time.\nThe end is near.'.length,
      story_ending: 'The end is near.',
      state: expect.objectContaining({ name: 'Shared', main_text: 'Once upon a time.\nThe end is near.' }),
    });
    expect(archive!.story_id).toBe(id);
    expect((await square(bob)).map((s) => s.id)).toEqual([id]);
    expect((await as(t, bob).get(`/api/user/check-story/${id}`)).body.data).toEqual({
      userHasStory: false,
      isPublic: true,
      originUserID: alice.userID,
    });
    expect((await as(t, alice).get(`/api/user/check-story/${id}`)).body.data).toEqual({
      userHasStory: true,
      isPublic: true,
      originUserID: alice.userID,
    });
  });

  it('others see and clone the public version, not later private edits; update replaces it', async () => {
    const id = await publishedStory(t, alice, { name: 'Versions' });
    await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: 'Draft\nnot yet public' } satisfies UpdateStoryDto);
    const seen = (await as(t, bob).get(`/api/llm?id=${id}`)).body.data;
    expect(seen.main_text).toBe('Once upon a time.\nThe end is near.');
    expect((await square(bob))[0]['last-line']).toBe('The end is near.');
    const first = await clonePublic(bob, alice, id);
    expect((await as(t, bob).get(`/api/llm?id=${first.body.data.id}`)).body.data.main_text).toBe(
      'Once upon a time.\nThe end is near.',
    );
    await as(t, alice).post(`/api/user/public/${id}`).expect(200);
    expect(await t.connection.db!.collection('story_archives').countDocuments()).toBe(1);
    expect((await square(bob))[0]['last-line']).toBe('not yet public');
    const second = await clonePublic(bob, alice, id);
    expect((await as(t, bob).get(`/api/llm?id=${second.body.data.id}`)).body.data.main_text).toBe(
      'Draft\nnot yet public',
    );
  });

  it('privatising hides the story from the square and from links at once', async () => {
    const id = await publishedStory(t, alice, { name: 'Gone soon' });
    await as(t, alice).post(`/api/user/private/${id}`).expect(200);
    expect(await square(bob)).toEqual([]);
    expect(await square(alice)).toEqual([]);
    for (const res of [
      await as(t, bob).get(`/api/user/check-story/${id}`),
      await clonePublic(bob, alice, id),
      await as(t, bob).get(`/api/llm?id=${id}`),
      await as(t, bob).get(`/api/user/story?id=${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(ErrorCode.STORY_NOT_FOUND);
    }
    expect(await t.connection.db!.collection('story_archives').countDocuments()).toBe(0);
    const mine = (await as(t, alice).get('/api/user/story-list')).body.data.list;
    expect(mine).toMatchObject([{ id, permission: '0' }]);
  });

  it('clone-public-story needs the right owner id', async () => {
    const id = await publishedStory(t, alice);
    const res = await clonePublic(carol, bob, id);
    expect(res.status).toBe(404);
  });

  it('a clone records clonedFrom and level; a clone of a clone has level 2 and credits the right sources', async () => {
    const root = await publishedStory(t, alice, { name: 'Root' });
    const rootNo = (await item(alice, root)).storyNo;
    const b = (await clonePublic(bob, alice, root)).body.data.id;
    const bItem = await item(bob, b);
    expect(bItem).toMatchObject({ name: 'Root', level: 1, clonedFrom: rootNo, userID: bob.userID, permission: '0' });
    const bStory = (await as(t, bob).get(`/api/llm?id=${b}`)).body.data;
    expect(bStory).toMatchObject({ author: 'alice', writer: 'bob', isOwner: true });

    await as(t, bob).post(`/api/user/public/${b}`).expect(200);
    const c = (await clonePublic(carol, bob, b)).body.data.id;
    expect(await item(carol, c)).toMatchObject({ level: 2, clonedFrom: bItem.storyNo, userID: carol.userID });
    expect((await as(t, carol).get(`/api/llm?id=${c}`)).body.data).toMatchObject({ author: 'alice', writer: 'carol' });
    const stored = await t.connection.db!.collection('stories').findOne({ storyNo: (await item(carol, c)).storyNo });
    expect(stored!.sourceStoryId).toBe(b);
    expect(stored!.rootStoryId).toBe(root);

    // Alice's story has two players (bob directly, carol through bob's clone); bob's has one.
    expect(await item(alice, root)).toMatchObject({ unique_user_count: 2 });
    expect(await item(bob, b)).toMatchObject({ unique_user_count: 1 });
    // Cloning again does not count a player twice.
    await clonePublic(carol, alice, root).expect(201);
    expect((await item(alice, root)).unique_user_count).toBe(2);
  });

  it('an accepted turn moves the story own counters and the square counters of its sources, with 2-decimal averages', async () => {
    const root = await publishedStory(t, alice, { name: 'Counted' });
    const b = (await clonePublic(bob, alice, root)).body.data.id;
    await as(t, bob).post(`/api/user/public/${b}`).expect(200);
    const c = (await clonePublic(carol, bob, b)).body.data.id;
    // The characters a turn added: its piece, after the line break that joins it to the text.
    const turn = async (u: TestUser, id: string, length: number) => charCount((await service.appendTurn(u.userID, id, 'x'.repeat(length - 1))).appended);

    expect(await turn(bob, b, 100)).toBe(100);
    expect(await turn(bob, b, 50)).toBe(50);
    expect(await turn(carol, c, 7)).toBe(7);
    // A turn by alice on her own clone does not credit her own story.
    const own = (await as(t, alice).post(`/api/llm/${root}/clone`)).body.data.id;
    await turn(alice, own, 1000);
    // Nothing is left owed: every credit was counted and let go of.
    expect(await t.connection.db!.collection('stories').countDocuments({ $or: [{ 'creditsDue.0': { $exists: true } }, { 'creditsApplied.0': { $exists: true } }, { playerDue: { $exists: true } }] })).toBe(0);

    const rootItem = (await square(carol)).find((s) => s.id === root)!;
    expect(rootItem).toMatchObject({
      unique_user_count: 2,
      penetration_story_total_rounds: 3,
      story_average_rounds: 1.5,
      additional_story_count: 157,
      story_average_count: 78.5,
    });
    expect(await item(bob, b)).toMatchObject({
      unique_user_count: 1,
      penetration_story_total_rounds: 1,
      story_average_rounds: 1,
      additional_story_count: 7,
      story_average_count: 7,
    });
    const stored = await t.connection.db!.collection('stories').findOne({ name: 'Counted', userID: { $exists: true }, level: 1 });
    expect(stored).toMatchObject({ rounds: 2, addedChars: 150 });

    await t.connection.db!.collection('stories').updateOne({ storyNo: rootItem.storyNo }, { $set: { unique_user_count: 3 } });
    expect((await item(alice, root)).story_average_count).toBe(52.33);
  });

  it('the owner clones their own story (e.g. from a restore point) with level + 1, counting no player', async () => {
    const id = await createStory(t, alice, { name: 'Mine' });
    const res = await as(t, alice).post(`/api/llm/${id}/clone`);
    expect(res.status).toBe(201);
    const clone = await item(alice, res.body.data.id);
    expect(clone).toMatchObject({ name: 'Mine', level: 1, clonedFrom: (await item(alice, id)).storyNo });
    expect((await item(alice, id)).unique_user_count).toBe(0);
  });

  it('hands out distinct story numbers under concurrency', async () => {
    const numbers = t.app.get(StoryNumbersService);
    const got = await Promise.all(Array.from({ length: 30 }, () => numbers.next()));
    expect(new Set(got).size).toBe(30);
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => createStory(t, bob, { name: `Parallel ${i}` })));
    const nos = await Promise.all(ids.map(async (id) => (await item(bob, id)).storyNo));
    expect(new Set(nos).size).toBe(10);
  });

  it('counts a player once under concurrent clones', async () => {
    const root = await publishedStory(t, alice);
    const results = await Promise.all(Array.from({ length: 8 }, () => clonePublic(bob, alice, root)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect((await item(alice, root)).unique_user_count).toBe(1);
  });
});
