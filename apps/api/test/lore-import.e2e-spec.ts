import { ErrorCode, type LoreBookData, type PromptContextData } from '@taleloom/contracts';
import request from 'supertest';
import { cardText, makePng } from './file-factories';
import { as, createStory, type TestUser } from './story-factories';
import { sendTurn, unthrottle } from './support/play-helpers';
import { entry, loreSuite } from './support/lore-suite';
import type { OpenAIStub } from './support/openai-stub';
import type { TestApp } from './test-app';

describe('lore: import and export (character cards, World Info files, txt lore blocks)', () => {
  const suite = loreSuite();
  const { drain, book, add } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser, bob: TestUser;
  beforeEach(() => void ({ t, stub, base, alice, bob } = suite));

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
});
