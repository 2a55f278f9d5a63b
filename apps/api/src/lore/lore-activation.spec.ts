import { DEFAULT_LORE_SETTINGS, type LoreEntry, type LoreSettings } from '@taleloom/contracts';
import { activateLore, compileLore, type LoreScan } from './lore-activation';

let n = 0;
const entry = (title: string, keys: string[], content: string, more: Partial<LoreEntry> = {}): LoreEntry => ({
  id: `e${++n}`,
  title,
  keys,
  secondary_keys: [],
  content,
  constant: false,
  enabled: true,
  order: 100,
  case_sensitive: false,
  whole_words: true,
  scan_depth: null,
  ...more,
});
// One token per character keeps budgets readable.
const measure = (content: string) => content.length;
const run = (entries: LoreEntry[], scan: Partial<LoreScan>, budget = 10_000, settings: Partial<LoreSettings> = {}) =>
  activateLore(compileLore(1, { ...DEFAULT_LORE_SETTINGS, ...settings }, entries), { text: '', line: '', note: '', ...scan }, budget, measure);
const titles = (a: { fired: { entry: LoreEntry }[] }) => a.fired.map((f) => f.entry.title);

describe('lore activation', () => {
  it('fires English keywords as whole words, whatever their case', () => {
    const cat = entry('Cat', ['cat'], 'A grey cat.');
    expect(titles(run([cat], { text: 'The CAT slept.' }))).toEqual(['Cat']);
    expect(titles(run([cat], { text: 'They concatenated the scrolls.' }))).toEqual([]);
  });

  it('fires Chinese keywords as substrings', () => {
    const mira = entry('米拉', ['米拉'], '米拉是一名剑士。');
    const fired = run([mira], { text: '夜里，米拉的剑闪着光。' });
    expect(titles(fired)).toEqual(['米拉']);
    expect(fired.fired[0].firing).toMatchObject({ keyword: '米拉', source: 'text', depth: 0 });
  });

  it('honours case sensitivity', () => {
    const rose = entry('Rose', ['Rose'], 'Rose is the queen.', { case_sensitive: true });
    expect(titles(run([rose], { text: 'a rose in the garden' }))).toEqual([]);
    expect(titles(run([rose], { text: 'Rose smiled' }))).toEqual(['Rose']);
  });

  it('needs a secondary keyword too when the entry has some', () => {
    const vault = entry('Vault', ['vault'], 'The vault opens at midnight.', { secondary_keys: ['midnight', 'key'] });
    expect(titles(run([vault], { text: 'They reached the vault.' }))).toEqual([]);
    const fired = run([vault], { text: 'They reached the vault.', line: 'I take out the key.' });
    expect(titles(fired)).toEqual(['Vault']);
    expect(fired.fired[0].firing).toMatchObject({ keyword: 'vault', secondaryKeyword: 'key', source: 'text' });
  });

  it('scans the player line and the author note, and only the newest scan_depth characters of the text', () => {
    const keep = entry('Keep', ['keep'], 'An old keep.');
    const old = `The keep stood. ${'x '.repeat(2000)}`;
    expect(titles(run([keep], { text: old }))).toEqual([]);
    expect(titles(run([keep], { text: old }, 10_000, { scan_depth: 10_000 }))).toEqual(['Keep']);
    expect(run([keep], { text: old, line: 'to the keep' }).fired[0].firing.source).toBe('line');
    expect(run([keep], { text: old, note: 'mention the keep' }).fired[0].firing.source).toBe('author_note');
    // An entry's own depth overrides the story's.
    expect(titles(run([{ ...keep, scan_depth: 50_000 }], { text: old }))).toEqual(['Keep']);
  });

  it('puts always-on entries first, then the rest by order', () => {
    const a = entry('A', ['alpha'], 'a', { order: 300 });
    const b = entry('B', ['beta'], 'b', { order: 10 });
    const c = entry('C', [], 'c', { constant: true, order: 500 });
    const d = entry('D', ['delta'], 'd', { enabled: false });
    const fired = run([a, b, c, d], { text: 'alpha beta delta' });
    expect(titles(fired)).toEqual(['C', 'B', 'A']);
    expect(fired.fired[0].firing).toMatchObject({ constant: true, keyword: '', source: null });
  });

  it('fills the budget in order and reports what was left out', () => {
    const a = entry('A', ['alpha'], 'x'.repeat(40), { order: 1 });
    const b = entry('B', ['beta'], 'y'.repeat(40), { order: 2 });
    const c = entry('C', ['gamma'], 'z'.repeat(10), { order: 3 });
    const result = run([a, b, c], { text: 'alpha beta gamma' }, 60);
    expect(titles(result)).toEqual(['A', 'C']);
    expect(result.used).toBe(50);
    expect(result.leftOut.map((l) => [l.entry.title, l.tokens])).toEqual([['B', 40]]);
  });

  it('lets the content of entries that fired trigger others, up to the recursion depth', () => {
    const king = entry('King', ['king'], 'The king rules from Ashford.');
    const ashford = entry('Ashford', ['Ashford'], 'Ashford lies by the river Lune.');
    const lune = entry('Lune', ['Lune'], 'The Lune floods in spring; its ferryman is Oren.');
    const oren = entry('Oren', ['Oren'], 'Oren owes the king money.');
    const all = [king, ashford, lune, oren];
    expect(titles(run(all, { text: 'The king spoke.' }, 10_000, { recursion_depth: 0 }))).toEqual(['King']);
    expect(titles(run(all, { text: 'The king spoke.' }, 10_000, { recursion_depth: 1 }))).toEqual(['King', 'Ashford']);
    const deep = run(all, { text: 'The king spoke.' }, 10_000, { recursion_depth: 2 });
    expect(titles(deep)).toEqual(['King', 'Ashford', 'Lune']);
    expect(deep.fired[2].firing).toMatchObject({ source: 'entry', viaTitle: 'Ashford', keyword: 'Lune', depth: 2 });
    // Oren's content names the king again: nothing fires twice, and the rounds end.
    expect(titles(run(all, { text: 'The king spoke.' }, 10_000, { recursion_depth: 5 }))).toEqual(['King', 'Ashford', 'Lune', 'Oren']);
  });

  it('does not recurse from entries left out for lack of room', () => {
    const big = entry('Big', ['big'], `Big mentions small. ${'x'.repeat(100)}`);
    const small = entry('Small', ['small'], 'small');
    expect(titles(run([big, small], { text: 'big' }, 50))).toEqual([]);
  });

  it('does not fire a keyword entry without keywords', () => {
    expect(titles(run([entry('Empty', [' '], 'never')], { text: 'anything' }))).toEqual([]);
  });

  it('renders and measures an entry once per memo name, and again under another name', () => {
    const lore = compileLore(1, DEFAULT_LORE_SETTINGS, [entry('Guide', ['guide'], '{{user}} meets the guide.'), entry('Map', ['map'], 'A map.')]);
    const calls: string[] = [];
    const send = (player: string) =>
      activateLore(
        lore,
        { text: 'the guide and the map', line: '', note: '' },
        10_000,
        (c) => {
          calls.push(c);
          return c.length;
        },
        (c) => c.replace(/\{\{user\}\}/g, player),
        `prompt:${player}`,
      );
    const first = send('Mara');
    expect(first.fired.map((f) => f.content)).toEqual(['Mara meets the guide.', 'A map.']);
    expect(calls).toHaveLength(2);
    // The same name again: the same content and tokens, nothing measured anew.
    expect(send('Mara')).toEqual(first);
    expect(calls).toHaveLength(2);
    // Another player renders anew.
    expect(send('Oren').fired.map((f) => [f.content, f.tokens])).toEqual([
      ['Oren meets the guide.', 21],
      ['A map.', 6],
    ]);
    expect(calls).toHaveLength(4);
  });
});
