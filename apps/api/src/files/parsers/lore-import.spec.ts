import { cardBook } from './card-book';
import { takeLoreBlocks } from './lore-blocks';

describe('a character card book as lore', () => {
  const book = {
    token_budget: 900,
    recursive_scanning: false,
    scan_depth: 4,
    entries: [
      { keys: ['青锋剑', '{{char}}的剑'], content: '{{char}}的佩剑，<USER>见过一次。', enabled: true, insertion_order: 5, name: '青锋剑' },
      { keys: ['vault'], secondary_keys: ['midnight'], selective: true, content: 'Opens at midnight.', enabled: false, comment: 'The vault', case_sensitive: true },
      { keys: ['tower'], secondary_keys: ['ignored'], selective: false, constant: true, content: 'Always there.', extensions: { match_whole_words: false } },
      { keys: ['/wyrm|dragon/i'], content: 'Dragons.', insertion_order: 1 },
      { keys: ['/dra.on/'], use_regex: true, content: 'Pattern.' },
      { keys: ['x'], content: '   ' },
    ],
  };

  it('maps every field a peer stores, resolving {{char}} and keeping {{user}}', () => {
    const lore = cardBook(book, '林月', 'zh-CN')!;
    expect(lore.settings).toEqual({ token_budget: 900, recursion_depth: 0 });
    expect(lore.entries).toHaveLength(5);
    expect(lore.entries[0]).toEqual({
      title: '青锋剑', keys: ['青锋剑', '林月的剑'], secondary_keys: [], content: '林月的佩剑，{{user}}见过一次。', constant: false,
      enabled: true, order: 5, case_sensitive: false, whole_words: true, scan_depth: null,
    });
    expect(lore.entries[1]).toMatchObject({ title: 'The vault', secondary_keys: ['midnight'], enabled: false, case_sensitive: true, order: 100 });
    expect(lore.entries[2]).toMatchObject({ title: 'tower', secondary_keys: [], constant: true, whole_words: false });
    expect(lore.entries[3]).toMatchObject({ title: 'wyrm', keys: ['wyrm', 'dragon'], enabled: true, case_sensitive: false, order: 1 });
    // A real pattern cannot be matched as words: the entry comes in disabled, its key kept as written.
    expect(lore.entries[4]).toMatchObject({ keys: ['/dra.on/'], enabled: false });
  });

  it('has nothing for a card without a book', () => {
    expect(cardBook(undefined, 'X', 'en')).toBeNull();
    expect(cardBook({ entries: [{ keys: ['a'], content: '' }] }, 'X', 'en')).toBeNull();
  });

  it('names untitled entries in the request language', () => {
    expect(cardBook({ entries: [{ keys: [], content: 'c' }] }, 'X', 'en')!.entries[0].title).toBe('Entry 1');
    expect(cardBook({ entries: [{ keys: [], content: 'c' }] }, 'X', 'zh-CN')!.entries[0].title).toBe('条目 1');
  });
});

describe('lore blocks in a txt or md file', () => {
  it('takes the entries and settings out of the text', () => {
    const text = [
      '# The North',
      'Snow fell on the pass.',
      '```lore',
      'budget: 1500',
      'recursion: 1',
      '[Ashford Keep]',
      'keys: Ashford, the keep',
      'also: winter；snow',
      'order: 10',
      'case: sensitive',
      '',
      'Ashford Keep guards the northern pass.',
      'Its lord is old.',
      '',
      '【米拉】',
      '关键词：米拉、剑士',
      '常驻：是',
      '整词：关',
      '米拉是一名剑士。',
      '[Broken]',
      'order: soon',
      'Order that cannot be read stays the default.',
      '```',
      'The story goes on.',
    ].join('\n');
    const { content, lore } = takeLoreBlocks(text);
    expect(content).toBe('# The North\nSnow fell on the pass.\nThe story goes on.');
    expect(lore!.settings).toEqual({ token_budget: 1500, recursion_depth: 1 });
    expect(lore!.entries).toEqual([
      { title: 'Ashford Keep', keys: ['Ashford', 'the keep'], secondary_keys: ['winter', 'snow'], order: 10, case_sensitive: true, content: 'Ashford Keep guards the northern pass.\nIts lord is old.' },
      { title: '米拉', keys: ['米拉', '剑士'], constant: true, whole_words: false, content: '米拉是一名剑士。' },
      { title: 'Broken', content: 'Order that cannot be read stays the default.' },
    ]);
  });

  it('leaves text without a block alone, and reads an unclosed block to the end', () => {
    expect(takeLoreBlocks('Just a story.\n```js\ncode\n```')).toEqual({ content: 'Just a story.\n```js\ncode\n```', lore: null });
    const { content, lore } = takeLoreBlocks('Start.\n~~~lore\n[A]\nkeys: a\nAlpha.');
    expect(content).toBe('Start.');
    expect(lore!.entries).toEqual([{ title: 'A', keys: ['a'], content: 'Alpha.' }]);
  });
});
