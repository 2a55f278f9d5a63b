import {
  ErrorCode,
  LORE_ENTRY_LIMIT,
  type CreateLoreEntryDto,
  type ImportLoreDto,
  type LoreBookData,
  type PromptContextData,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import request from 'supertest';
import { TurnRunner } from '../src/play/turn.runner';
import { cardText, makePng } from './file-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { listenOnLoopback, sendTurn, stubModel, unthrottle } from './support/play-helpers';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { createTestApp, type TestApp } from './test-app';

describe('lore (/api/lore) and the context inspector (GET /api/llm/:id/context)', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  const drain = () => t.app.get(TurnRunner).drain();
  const entry = (title: string, keys: string[], content: string, more: Partial<CreateLoreEntryDto> = {}): CreateLoreEntryDto => ({ title, keys, content, ...more });
  const book = async (user: TestUser, id: string): Promise<LoreBookData> => (await as(t, user).get(`/api/lore/${id}`)).body.data;
  const add = async (user: TestUser, id: string, body: CreateLoreEntryDto) => {
    const res = await as(t, user).post(`/api/lore/${id}/entries`, body);
    expect(res.status).toBe(200);
    return res.body.data as LoreBookData;
  };

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({ MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'stub', { points: 0 })]), PROVIDER_TIMEOUT_SECONDS: '5' });
    base = await listenOnLoopback(t);
  });
  beforeEach(async () => {
    await t.clean();
    stub.reset();
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await stub.close();
  });

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

  describe('import', () => {
    const card = (spec: 'v2' | 'v3') => ({
      spec: spec === 'v2' ? 'chara_card_v2' : 'chara_card_v3',
      spec_version: spec === 'v2' ? '2.0' : '3.0',
      data: {
        name: 'Lin',
        description: '{{char}} guards {{user}}.',
        personality: 'calm',
        scenario: 'an inn',
        first_mes: '{{char}} looks up.',
        mes_example: '',
        character_book: {
          token_budget: 700,
          entries: [
            { keys: ['Green Blade', "{{char}}'s sword"], content: "{{char}}'s old sword. {{user}} saw it once.", enabled: true, insertion_order: 3, name: 'Green Blade' },
            { keys: ['vault'], secondary_keys: ['midnight'], selective: true, content: 'Opens at midnight.', enabled: true, insertion_order: 9, comment: 'Vault', case_sensitive: true },
            { keys: [], content: 'The inn is haunted.', constant: true, enabled: true, insertion_order: 1, comment: 'Inn' },
            { keys: ['old'], content: 'Disabled.', enabled: false, insertion_order: 2 },
          ],
        },
      },
    });
    const upload = (data: Buffer, name: string) =>
      request(t.app.getHttpServer()).post('/api/upload_parse').set('Authorization', `Bearer ${alice.token}`).field('language', 'en').attach('file', data, name);

    it.each(['v2', 'v3'] as const)('brings a %s card\'s character_book in as lore entries, not prologue text', async (spec) => {
      const parsed = await upload(makePng([{ keyword: spec === 'v2' ? 'chara' : 'ccv3', text: cardText(card(spec)) }]), 'lin.png');
      expect(parsed.status).toBe(200);
      const { content, lore } = parsed.body.data;
      expect(content).toContain('Lin guards {{user}}.');
      expect(content).not.toMatch(/old sword|World info|haunted/);
      expect(lore.settings).toEqual({ token_budget: 700 });
      expect(lore.entries.map((e: { title: string }) => e.title)).toEqual(['Green Blade', 'Vault', 'Inn', 'old']);
      const id = await createStory(t, alice, { prologue_and_characters: content, lore });
      const stored = await book(alice, id);
      expect(stored.settings.token_budget).toBe(700);
      expect(stored.entries).toEqual([
        expect.objectContaining({ title: 'Green Blade', keys: ['Green Blade', "Lin's sword"], content: "Lin's old sword. {{user}} saw it once.", order: 3, enabled: true }),
        expect.objectContaining({ title: 'Vault', secondary_keys: ['midnight'], case_sensitive: true, order: 9 }),
        expect.objectContaining({ title: 'Inn', constant: true, order: 1 }),
        expect.objectContaining({ title: 'old', enabled: false, order: 2 }),
      ]);
    });

    it('keeps {{user}} in the story as written and gives the model the player\'s role (or "you" for the narrator)', async () => {
      const parsed = await upload(makePng([{ keyword: 'chara', text: cardText(card('v2')) }]), 'lin.png');
      const { content, lore } = parsed.body.data;
      const id = await createStory(t, alice, { prologue_and_characters: content, lore, 'hidden-settings': '{{user}} is heir.' });
      const sentParts = async () => {
        await drain();
        const context: PromptContextData = (await as(t, alice).get(`/api/llm/${id}/context`)).body.data;
        const received = stub.bodies.at(-1)!;
        context.messages.forEach((m, i) => expect(m.parts.map((p) => p.text).join('')).toBe(received.messages[i].content));
        return context.messages.flatMap((m) => m.parts);
      };

      await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I ask about the Green Blade, {{user}}.' });
      let parts = await sentParts();
      const text = (kind: string) => parts.filter((p) => p.kind === kind).map((p) => p.text).join('');
      expect(text('prologue')).toContain('Lin guards Mara.');
      expect(text('hidden_settings')).toContain('Mara is heir.');
      // The story text window too (a new story's text is its prologue), as the inspector shows it.
      expect(text('text')).toContain('Lin guards Mara.');
      expect(text('lore')).toContain("Lin's old sword. Mara saw it once.");
      // Card text only: the player's own line goes as typed.
      expect(parts.filter((p) => p.kind !== 'line').map((p) => p.text).join('')).not.toMatch(/\{\{user\}\}/i);
      expect(text('line')).toContain('{{user}}');
      expect((await as(t, alice).post(`/api/llm/${id}/discard`)).status).toBe(200);
      await unthrottle(t, id);

      const narrated = await sendTurn(base, alice.token, id, { role: '', content: 'The Green Blade glints.' });
      expect(narrated.events.at(-1)?.type).toBe('done');
      parts = await sentParts();
      expect(text('prologue')).toContain('Lin guards you.');
      expect(text('lore')).toContain("Lin's old sword. you saw it once.");
      expect(text('text')).toContain('Lin guards you.');

      // The story keeps the macro: another role later reads its own name.
      const stored = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
      expect(stored.prologue_and_characters).toContain('Lin guards {{user}}.');
      expect(stored['hidden-settings']).toBe('{{user}} is heir.');
      expect((await book(alice, id)).entries[0].content).toBe("Lin's old sword. {{user}} saw it once.");
    });

    it('takes a txt file\'s lore block out of its text, and imports it into a story', async () => {
      const txt = 'The snow fell.\n```lore\nbudget: 800\n[Ashford]\nkeys: Ashford\nAshford guards the pass.\n```\nThey rode on.';
      const parsed = await upload(Buffer.from(txt, 'utf8'), 'north.txt');
      expect(parsed.body.data.content).toBe('The snow fell.\nThey rode on.');
      expect(parsed.body.data.lore).toEqual({ settings: { token_budget: 800 }, entries: [{ title: 'Ashford', keys: ['Ashford'], content: 'Ashford guards the pass.' }] });
      const id = await createStory(t, alice);
      await add(alice, id, entry('Mine', ['mine'], 'Mine.'));
      const appended = await as(t, alice).post(`/api/lore/${id}/import`, { book: parsed.body.data.lore, mode: 'append' });
      expect(appended.body.data.entries.map((e: { title: string }) => e.title)).toEqual(['Mine', 'Ashford']);
      expect(appended.body.data.settings.token_budget).toBe(800);
      const replaced = await as(t, alice).post(`/api/lore/${id}/import`, { book: parsed.body.data.lore, mode: 'replace' });
      expect(replaced.body.data.entries.map((e: { title: string }) => e.title)).toEqual(['Ashford']);
    });

    it('exports the lore as a SillyTavern World Info file that comes back whole, into a new story or an existing one', async () => {
      const id = await createStory(t, alice, { name: '北方 / North' });
      await as(t, alice).put(`/api/lore/${id}/settings`, { token_budget: 640, scan_depth: 3000, recursion_depth: 1 });
      await add(alice, id, entry('Mira', ['Mira', '米拉'], 'Mira carries a green blade.', { secondary_keys: ['blade'], order: 7, case_sensitive: true }));
      await add(alice, id, entry('World', [], 'Magic is rare.', { constant: true, whole_words: false, scan_depth: 500 }));
      await add(alice, id, entry('Old', ['old'], 'Never used.', { enabled: false, order: -3 }));
      const original = await book(alice, id);

      const res = await as(t, alice).get(`/api/lore/${id}/export`).set('Accept-Language', 'zh-CN');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(res.headers['content-disposition'])![1])).toBe('织梦故事-北方 _ North-设定.json');
      const file = JSON.parse(res.text);
      // As SillyTavern writes its own: entries keyed by uid, each with its field names.
      expect(file.entries['0']).toMatchObject({
        uid: 0, key: ['Mira', '米拉'], keysecondary: ['blade'], comment: 'Mira', content: 'Mira carries a green blade.',
        constant: false, selective: true, selectiveLogic: 0, order: 7, disable: false, caseSensitive: true, matchWholeWords: true,
      });
      expect(file.entries['2']).toMatchObject({ comment: 'Old', disable: true, order: -3 });

      const parsed = await upload(Buffer.from(res.text, 'utf8'), 'north-lore.json');
      expect(parsed.status).toBe(200);
      expect(parsed.body.data).toMatchObject({ kind: 'lore_book', content: '', characters: 0 });
      const strip = (b: LoreBookData) => b.entries.map(({ id: _id, ...e }) => e);
      // Into a new story: every entry and setting as it was.
      const copy = await createStory(t, alice, { prologue_and_characters: 'P.', lore: parsed.body.data.lore });
      const copied = await book(alice, copy);
      expect(strip(copied)).toEqual(strip(original));
      expect(copied.settings).toEqual(original.settings);
      // Into an existing one, after its own entries.
      const other = await createStory(t, alice);
      await add(alice, other, entry('Mine', ['mine'], 'Mine.'));
      const appended = (await as(t, alice).post(`/api/lore/${other}/import`, { book: parsed.body.data.lore, mode: 'append' })).body.data as LoreBookData;
      expect(strip(appended).slice(1)).toEqual(strip(original));

      // Nobody else's: 404, whether the story is public or not.
      expect((await as(t, bob).get(`/api/lore/${id}/export`)).body.code).toBe(ErrorCode.STORY_NOT_FOUND);
    });

    it('reads a World Info file as SillyTavern writes it, and a JSON character card with its book', async () => {
      const worldInfo = {
        entries: {
          '5': { uid: 5, key: ['wyrm'], keysecondary: [], comment: 'Wyrm', content: 'Wyrms sleep under the hill.', constant: false, selective: true, selectiveLogic: 0, order: 50, disable: false, caseSensitive: null, matchWholeWords: null, displayIndex: 1 },
          '2': { uid: 2, key: ['/dragon|drake/i'], keysecondary: ['gold'], comment: '', content: 'Dragons hoard {{user}}\'s gold.', constant: false, selective: true, selectiveLogic: 0, order: 10, disable: false, caseSensitive: false, matchWholeWords: false, displayIndex: 0 },
          '7': { uid: 7, key: ['king'], keysecondary: ['dead'], comment: 'Living king', content: 'The king lives.', selective: true, selectiveLogic: 2, order: 1, disable: false, displayIndex: 2 },
          '8': { uid: 8, key: ['off'], keysecondary: [], comment: 'Off', content: 'Switched off.', disable: true, displayIndex: 3 },
          '9': { uid: 9, key: ['empty'], comment: 'Empty', content: '   ', displayIndex: 4 },
        },
      };
      const parsed = await upload(Buffer.from(JSON.stringify(worldInfo), 'utf8'), 'world.json');
      expect(parsed.status).toBe(200);
      expect(parsed.body.data.kind).toBe('lore_book');
      expect(parsed.body.data.lore.entries).toEqual([
        expect.objectContaining({ title: 'dragon', keys: ['dragon', 'drake'], secondary_keys: ['gold'], content: "Dragons hoard {{user}}'s gold.", order: 10, whole_words: false, enabled: true }),
        expect.objectContaining({ title: 'Wyrm', keys: ['wyrm'], order: 50, case_sensitive: false, whole_words: true, enabled: true }),
        // "Not any" of its secondary keys has no equal here: it waits, disabled, rather than fire the other way round.
        expect.objectContaining({ title: 'Living king', keys: ['king'], secondary_keys: ['dead'], enabled: false }),
        expect.objectContaining({ title: 'Off', enabled: false }),
      ]);

      const jsonCard = await upload(Buffer.from(JSON.stringify(card('v2')), 'utf8'), 'lin.json');
      expect(jsonCard.status).toBe(200);
      expect(jsonCard.body.data).toMatchObject({ kind: 'character_card', card: { name: 'Lin', spec: 'v2' } });
      expect(jsonCard.body.data.content).toContain('Lin guards {{user}}.');
      expect(jsonCard.body.data.lore.entries).toHaveLength(4);
    });

    it('answers a JSON file that is not a card or a lore book with a clear error', async () => {
      const broken = await upload(Buffer.from('{"entries": {', 'utf8'), 'broken.json');
      expect([broken.status, broken.body.code]).toEqual([422, ErrorCode.FILE_PARSE_FAILED]);
      const other = await upload(Buffer.from('[1, 2, 3]', 'utf8'), 'numbers.json');
      expect([other.status, other.body.code]).toEqual([415, ErrorCode.FILE_TYPE_UNSUPPORTED]);
      expect(other.body.message).toContain('lore book (.json)');
      const empty = await upload(Buffer.from(JSON.stringify({ entries: { '0': { key: ['a'], content: '' } } }), 'utf8'), 'empty.json');
      expect([empty.status, empty.body.code]).toEqual([400, ErrorCode.FILE_EMPTY]);
    });

    it('refuses a new story whose lore is invalid, creating nothing', async () => {
      const bad = await as(t, alice).post('/api/llm', { prologue_and_characters: 'P.', lore: { entries: [{ title: '', content: 'x' }] } });
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].field).toBe('lore.entries.0.title');
      const list = await as(t, alice).get('/api/user/story-list');
      expect(list.body.data.list).toHaveLength(0);
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

  describe('the context inspector', () => {
    it('shows each part of the prompt sent, the lore that fired and why, adding up to what the stub received', async () => {
      const id = await createStory(t, alice, { prologue_and_characters: 'Mira, a swordswoman. 米拉是剑士。' });
      await as(t, alice).patch(`/api/llm?id=${id}`, { author_remark: 'Keep it short; mention the harbour.', previous_summary: 'They left the city.' });
      await add(alice, id, entry('Mira', ['Mira'], 'Mira carries a green blade.', { order: 20 }));
      await add(alice, id, entry('龙城', ['龙城'], '龙城在北方，城门朝南。', { order: 10 }));
      await add(alice, id, entry('World', [], 'Magic is rare and feared.', { constant: true, order: 500 }));
      await add(alice, id, entry('Cat', ['cat'], 'Never fires on concatenate.'));
      await add(alice, id, entry('Harbour', ['harbour'], 'The harbour has a lighthouse.', { order: 30 }));
      await add(alice, id, entry('Big', ['lighthouse'], 'Lighthouse lore. '.repeat(400), { order: 40 }));
      await as(t, alice).put(`/api/lore/${id}/settings`, { token_budget: 400 });

      expect((await as(t, alice).get(`/api/llm/${id}/context`)).body.data).toBeNull();
      const sent = await sendTurn(base, alice.token, id, { role: 'Mira', content: 'I walk to 龙城 and concatenate my notes.' });
      expect(sent.events.at(-1)?.type).toBe('done');
      await drain();
      const res = await as(t, alice).get(`/api/llm/${id}/context`);
      expect(res.status).toBe(200);
      const context: PromptContextData = res.body.data;
      const received = stub.bodies.at(-1)!;

      // The parts, joined, are exactly what the model was sent, message by message.
      expect(context.messages.map((m) => m.role)).toEqual(received.messages.map((m) => m.role));
      context.messages.forEach((m, i) => expect(m.parts.map((p) => p.text).join('')).toBe(received.messages[i].content));
      expect(context.promptTokens).toBe(context.messages.flatMap((m) => m.parts).reduce((n, p) => n + p.tokens, context.overheadTokens));
      expect(context).toMatchObject({ model: 'stub', contextWindow: 4096, maxOutput: 200, turnId: sent.events.find((e) => e.type === 'done')!.turnId });
      expect(context.messages.flatMap((m) => m.parts.map((p) => p.kind))).toEqual([
        'system', 'play_mode', 'prologue', 'summary', 'lore', 'lore', 'lore', 'lore', 'text', 'author_note', 'user_prompt', 'line',
      ]);

      // Always-on first, then by order; each with the keyword that fired it and where it was found.
      const lore = context.messages[1].parts.filter((p) => p.kind === 'lore').map((p) => p.lore!);
      expect(lore.map((l) => [l.title, l.keyword, l.source])).toEqual([
        ['World', '', null],
        ['龙城', '龙城', 'line'],
        ['Mira', 'Mira', 'text'],
        ['Harbour', 'harbour', 'author_note'],
      ]);
      // The harbour's lighthouse fires Big by recursion, which does not fit the budget.
      expect(context.lore.leftOut).toEqual([expect.objectContaining({ title: 'Big', keyword: 'lighthouse', source: 'entry', viaTitle: 'Harbour', depth: 1 })]);
      expect(context.lore.budget).toBe(400);
      expect(context.lore.used).toBeLessThanOrEqual(400);
      const text = context.messages[1].parts.find((p) => p.kind === 'text')!;
      expect(text).toMatchObject({ available: true, from: 0 });
      expect(received.messages[1].content).not.toContain('Never fires');

      // Accepting the turn keeps the inspector showing it (the window is still there).
      await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mira: I walk.', newContent: 'She walks.' });
      const after = (await as(t, alice).get(`/api/llm/${id}/context`)).body.data as PromptContextData;
      expect(after.messages[1].parts.find((p) => p.kind === 'text')).toMatchObject({ available: true, text: text.text });
      // An edit of the text since: the window can no longer be shown, its tokens still can.
      await unthrottle(t, id);
      await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: 'Rewritten.' });
      const edited = (await as(t, alice).get(`/api/llm/${id}/context`)).body.data as PromptContextData;
      expect(edited.messages[1].parts.find((p) => p.kind === 'text')).toMatchObject({ available: false, tokens: text.tokens });
    });

    it('shows the prompt of the line the story plays: a branch has its own, and switching back shows the other line\'s again', async () => {
      const id = await createStory(t, alice, { prologue_and_characters: 'Mira waits at the pier.' });
      await add(alice, id, entry('Mira', ['Mira'], 'Mira carries a green blade.'));
      const turnOf = (events: { type: string; turnId?: string }[]) => events.find((e) => e.type === 'done')!.turnId;
      const context = async () => (await as(t, alice).get(`/api/llm/${id}/context`)).body.data as PromptContextData | null;

      const onMain = await sendTurn(base, alice.token, id, { content: 'Mira looks at the sea.' });
      await drain();
      await as(t, alice).post(`/api/llm/${id}/accept`, {});
      expect((await context())!.turnId).toBe(turnOf(onMain.events));

      const forked = await as(t, alice).post(`/api/llm/${id}/branches`, { at: 5 });
      expect(forked.status).toBe(200);
      const branch = forked.body.data.current as string;
      // Nothing was sent on the new line yet.
      expect(await context()).toBeNull();
      await unthrottle(t, id);
      const onBranch = await sendTurn(base, alice.token, id, { content: 'A storm, and Mira runs.' });
      await drain();
      expect((await context())!.turnId).toBe(turnOf(onBranch.events));
      expect(firedTitles(await context())).toEqual(['Mira']);

      await unthrottle(t, id);
      expect((await as(t, alice).post(`/api/llm/${id}/branches/${id}/play`)).status).toBe(200);
      const back = await context();
      expect(back!.turnId).toBe(turnOf(onMain.events));
      expect(back!.messages[1].parts.find((p) => p.kind === 'text')).toMatchObject({ available: true });
      await unthrottle(t, id);
      expect((await as(t, alice).post(`/api/llm/${id}/branches/${branch}/play`)).status).toBe(200);
      expect((await context())!.turnId).toBe(turnOf(onBranch.events));

      // A deleted branch's prompt goes with it.
      const contexts = t.connection.db!.collection('turn_contexts');
      expect(await contexts.countDocuments({ _id: new Types.ObjectId(branch) })).toBe(1);
      await unthrottle(t, id);
      expect((await as(t, alice).post(`/api/llm/${id}/branches/${id}/play`)).status).toBe(200);
      expect((await as(t, alice).delete(`/api/llm/${id}/branches/${branch}`)).status).toBe(200);
      expect(await contexts.countDocuments({ _id: new Types.ObjectId(branch) })).toBe(0);
      expect((await context())!.turnId).toBe(turnOf(onMain.events));
      // The original line's too (its prompt is kept under the story's id).
      expect((await as(t, alice).post(`/api/llm/${id}/branches`, { at: 5 })).status).toBe(200);
      expect((await as(t, alice).delete(`/api/llm/${id}/branches/${id}`)).status).toBe(200);
      expect(await contexts.countDocuments({ _id: new Types.ObjectId(id) })).toBe(0);
    });
  });
});

const firedTitles = (context: PromptContextData | null): string[] =>
  (context?.messages ?? []).flatMap((m) => m.parts.flatMap((p) => (p.kind === 'lore' && p.lore ? [p.lore.title] : [])));
