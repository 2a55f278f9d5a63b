import type { LoreBookData } from '@taleloom/contracts';

/**
 * A story's lore as a SillyTavern World Info file (its World Info panel imports it; TaleLoom's lore
 * import and the create screen read it back, files/parsers/lore-book-json.ts). Each entry keeps its
 * title (`comment`), keywords, secondary keywords ("and any", as here), content, always-on, order,
 * enabled (`disable`), case and whole words; what only TaleLoom has (an entry's scan depth in
 * characters, the story's lore settings) goes under `extensions.taleloom`, which other programs keep
 * or ignore. SillyTavern's own scan depth counts chat messages: left to its default.
 */
export function loreToWorldInfo(book: LoreBookData, name: string): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  book.entries.forEach((e, uid) => {
    entries[String(uid)] = {
      uid,
      key: e.keys,
      keysecondary: e.secondary_keys,
      comment: e.title,
      content: e.content,
      constant: e.constant,
      vectorized: false,
      selective: true,
      selectiveLogic: 0,
      addMemo: true,
      order: e.order,
      position: 0,
      disable: !e.enabled,
      excludeRecursion: false,
      preventRecursion: false,
      probability: 100,
      useProbability: true,
      depth: 4,
      group: '',
      scanDepth: null,
      caseSensitive: e.case_sensitive,
      matchWholeWords: e.whole_words,
      displayIndex: uid,
      extensions: e.scan_depth === null ? {} : { taleloom: { scan_depth: e.scan_depth } },
    };
  });
  return { name, entries, extensions: { taleloom: { settings: book.settings } } };
}
