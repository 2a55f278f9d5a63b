import { ErrorCode, LORE_ENTRY_LIMIT, type ImportLoreDto } from '@taleloom/contracts';
import { as, createStory, type TestUser } from './story-factories';
import { entry, loreSuite } from './support/lore-suite';
import type { TestApp } from './test-app';

describe('lore: entries of a story\'s lore book, kept with the story (/api/lore)', () => {
  const suite = loreSuite();
  const { book, add } = suite;
  let t: TestApp, alice: TestUser, bob: TestUser;
  beforeEach(() => void ({ t, alice, bob } = suite));

  describe('entries', () => {
    it('adds, changes, duplicates and deletes entries, with defaults and clean keywords', async () => {
      const id = await createStory(t, alice);
      expect(await book(alice, id)).toEqual({ version: 0, settings: { scan_depth: 2000, token_budget: 1024, recursion_depth: 2 }, entries: [] });
      const added = await add(alice, id, entry('  Mira ', [' Mira ', '', 'Mira', 'the swordswoman'], 'Mira is a swordswoman.'));
      expect(added.version).toBe(1);
      const mira = added.entries[0];
      expect(mira).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/), title: 'Mira', keys: ['Mira', 'the swordswoman'], secondary_keys: [], content: 'Mira is a swordswoman.',
        constant: false, enabled: true, order: 100, case_sensitive: false, whole_words: true, scan_depth: null,
      });
      const changed = await as(t, alice).patch(`/api/lore/${id}/entries/${mira.id}`, { enabled: false, order: 7, scan_depth: 500 });
      expect(changed.status).toBe(200);
      expect(changed.body.data.entries[0]).toMatchObject({ enabled: false, order: 7, scan_depth: 500, title: 'Mira' });
      await add(alice, id, entry('Keep', ['keep'], 'An old keep.'));
      const copied = await as(t, alice).post(`/api/lore/${id}/entries/${mira.id}/duplicate`, { language: 'zh-CN' });
      expect(copied.body.data.entries.map((e: { title: string }) => e.title)).toEqual(['Mira', 'Mira（副本）', 'Keep']);
      expect(copied.body.data.entries[1]).toMatchObject({ enabled: false, order: 7, keys: ['Mira', 'the swordswoman'] });
      expect(copied.body.data.entries[1].id).not.toBe(mira.id);
      const removed = await as(t, alice).delete(`/api/lore/${id}/entries/${mira.id}`);
      expect(removed.body.data.entries.map((e: { title: string }) => e.title)).toEqual(['Mira（副本）', 'Keep']);
      expect(removed.body.data.version).toBe(5);
      const settings = await as(t, alice).put(`/api/lore/${id}/settings`, { token_budget: 300, recursion_depth: 0 });
      expect(settings.body.data.settings).toEqual({ scan_depth: 2000, token_budget: 300, recursion_depth: 0 });
    });

    it('answers bad input with coded errors in both languages and changes nothing', async () => {
      const id = await createStory(t, alice);
      await add(alice, id, entry('Mira', ['Mira'], 'Mira.'));
      const missing = await as(t, alice).post(`/api/lore/${id}/entries`, { keys: ['x'], content: 'no title' });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(missing.body.details.map((d: { field: string }) => d.field)).toContain('title');
      const long = await as(t, alice).post(`/api/lore/${id}/entries`, entry('T', ['k'.repeat(101)], 'c'));
      expect(long.status).toBe(400);
      expect(long.body.details[0].field).toBe('keys');
      const unknown = await as(t, alice).post(`/api/lore/${id}/entries`, { ...entry('T', [], 'c'), regex: true });
      expect(unknown.status).toBe(400);
      const budget = await as(t, alice).put(`/api/lore/${id}/settings`, { token_budget: 1_000_000 });
      expect(budget.body.details[0].field).toBe('token_budget');
      const nothing = await as(t, alice).patch(`/api/lore/${id}/entries/${(await book(alice, id)).entries[0].id}`, {});
      expect(nothing.body.code).toBe(ErrorCode.NOTHING_TO_UPDATE);
      const gone = await as(t, alice).patch(`/api/lore/${id}/entries/000000000000000000000000`, { enabled: false, language: 'zh-CN' });
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ code: ErrorCode.LORE_ENTRY_NOT_FOUND, message: '该设定条目不存在（可能已被删除）。' });
      expect((await book(alice, id)).version).toBe(1);
    });

    it(`holds at most ${LORE_ENTRY_LIMIT} entries and 1,000,000 characters`, async () => {
      const id = await createStory(t, alice);
      const many = Array.from({ length: LORE_ENTRY_LIMIT }, (_, i) => entry(`E${i}`, [`k${i}`], `Entry ${i}.`));
      const imported = await as(t, alice).post(`/api/lore/${id}/import`, { book: { entries: many }, mode: 'append' } satisfies ImportLoreDto);
      expect(imported.status).toBe(200);
      expect(imported.body.data.entries).toHaveLength(LORE_ENTRY_LIMIT);
      const over = await as(t, alice).post(`/api/lore/${id}/entries`, { ...entry('One more', ['x'], 'x'), language: 'en' });
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ code: ErrorCode.LORE_ENTRY_LIMIT, params: { limit: '2,000' }, message: expect.stringContaining('2,000') });
      const huge = Array.from({ length: 60 }, (_, i) => entry(`H${i}`, [`h${i}`], 'x'.repeat(20_000)));
      const tooLarge = await as(t, alice).post(`/api/lore/${id}/import`, { book: { entries: huge }, mode: 'replace', language: 'zh-CN' });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body.code).toBe(ErrorCode.LORE_TOO_LARGE);
      expect(tooLarge.body.message).toContain('1,000,000');
      expect((await book(alice, id)).entries).toHaveLength(LORE_ENTRY_LIMIT);
    });

    it("answers another user's story (and entries) 404 and changes nothing", async () => {
      const id = await createStory(t, alice);
      const { entries } = await add(alice, id, entry('Mira', ['Mira'], 'Mira.'));
      const calls = [
        as(t, bob).get(`/api/lore/${id}`),
        as(t, bob).post(`/api/lore/${id}/entries`, entry('X', ['x'], 'x')),
        as(t, bob).patch(`/api/lore/${id}/entries/${entries[0].id}`, { enabled: false }),
        as(t, bob).delete(`/api/lore/${id}/entries/${entries[0].id}`),
        as(t, bob).post(`/api/lore/${id}/entries/${entries[0].id}/duplicate`),
        as(t, bob).put(`/api/lore/${id}/settings`, { token_budget: 1 }),
        as(t, bob).post(`/api/lore/${id}/import`, { book: { entries: [entry('X', ['x'], 'x')] }, mode: 'replace' }),
        as(t, bob).get(`/api/llm/${id}/context`),
        as(t, bob).get('/api/lore/not-an-id'),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe(ErrorCode.STORY_NOT_FOUND);
      }
      expect(await book(alice, id)).toMatchObject({ version: 1, entries: [expect.objectContaining({ title: 'Mira', enabled: true })] });
    });
  });

  describe('kept with the story', () => {
    it('is saved into archives, restored from them, published, and copied by clones', async () => {
      const id = await createStory(t, alice);
      await add(alice, id, entry('Mira', ['Mira'], 'Mira v1.'));
      expect((await as(t, alice).post('/api/archive/save', { story_id: id, archive_index: 2 })).status).toBe(200);
      const mira = (await book(alice, id)).entries[0];
      await as(t, alice).patch(`/api/lore/${id}/entries/${mira.id}`, { content: 'Mira v2.' });
      expect((await as(t, alice).post(`/api/user/public/${id}`)).status).toBe(200);
      await as(t, alice).patch(`/api/lore/${id}/entries/${mira.id}`, { content: 'Mira v3 (draft).' });

      // Someone else's clone copies the published version's lore.
      const cloned = await as(t, bob).post('/api/user/clone-public-story', { userID: alice.userID, storyID: id });
      expect(cloned.status).toBe(201);
      expect((await book(bob, cloned.body.data.id)).entries.map((e) => e.content)).toEqual(['Mira v2.']);
      // The owner's own clone copies the lore as it is now.
      const own = await as(t, alice).post(`/api/llm/${id}/clone`);
      expect((await book(alice, own.body.data.id)).entries.map((e) => e.content)).toEqual(['Mira v3 (draft).']);

      // Loading the slot brings its lore back.
      const slots = await as(t, alice).get(`/api/archive/${id}`);
      const slot = slots.body.data.find((s: { archive_index: number }) => s.archive_index === 2);
      expect((await as(t, alice).post('/api/archive/load', { archive_id: slot._id })).status).toBe(200);
      expect((await book(alice, id)).entries.map((e) => e.content)).toEqual(['Mira v1.']);

      // Made private: the public version's lore goes with it.
      await as(t, alice).post(`/api/user/private/${id}`);
      expect(await t.connection.db!.collection('story_lore_archives').countDocuments({ story_id: id, archive_index: -1 })).toBe(0);
    });
  });
});
