import {
  LORE_CONTENT_MAX_LENGTH,
  LORE_DEFAULT_ORDER,
  LORE_ENTRY_LIMIT,
  LORE_KEY_MAX_LENGTH,
  LORE_KEYS_MAX,
  LORE_ORDER_MAX,
  LORE_ORDER_MIN,
  LORE_TITLE_MAX_LENGTH,
  LORE_TOKEN_BUDGET_MAX,
  type Language,
  type LoreBookInput,
  type LoreEntryInput,
} from '@taleloom/contracts';

const ENTRY_TITLE: Record<Language, string> = { en: 'Entry {n}', 'zh-CN': '条目 {n}' };

/**
 * A V2/V3 card's `character_book` as lore (peers.md "Lore"): keys, secondary keys (only for
 * `selective` entries, as peers use them), constant, insertion order, enabled (disabled entries come in
 * disabled), case sensitivity and whole words (SillyTavern's `extensions.match_whole_words`); the
 * book's token budget and recursive scanning. `{{char}}`/`<BOT>` become the character's name,
 * `<USER>` becomes `{{user}}` (resolved to the player's role when a prompt is sent). Regular-expression
 * keys (`/a|b/i`, V3 `use_regex`) that are plain alternatives become those words; others cannot be
 * matched here, so their entry comes in disabled. The book's scan depth counts chat messages, which a
 * story does not have: the story's own scan depth applies.
 */
export function cardBook(book: unknown, name: string, language: Language): LoreBookInput | null {
  if (!book || typeof book !== 'object') return null;
  const raw = (book as { entries?: unknown }).entries;
  if (!Array.isArray(raw)) return null;
  const macros = (text: string) => text.replace(/\{\{char\}\}|<BOT>/gi, () => name || '{{char}}').replace(/\{\{user\}\}|<USER>/gi, '{{user}}');
  const entries: LoreEntryInput[] = [];
  for (const item of raw.slice(0, LORE_ENTRY_LIMIT)) {
    if (!item || typeof item !== 'object') continue;
    const e = item as Record<string, unknown>;
    const content = macros(str(e.content)).slice(0, LORE_CONTENT_MAX_LENGTH);
    if (!content) continue;
    const regex = e.use_regex === true;
    const primary = keyList(e.keys, macros, regex);
    const secondary = e.selective === true ? keyList(e.secondary_keys, macros, regex) : { keys: [], plain: true };
    const extensions = (e.extensions && typeof e.extensions === 'object' ? e.extensions : {}) as Record<string, unknown>;
    const title = (str(e.name) || str(e.comment) || primary.keys[0] || ENTRY_TITLE[language].replace('{n}', String(entries.length + 1))).slice(0, LORE_TITLE_MAX_LENGTH);
    const order = typeof e.insertion_order === 'number' && Number.isFinite(e.insertion_order) ? Math.round(e.insertion_order) : LORE_DEFAULT_ORDER;
    entries.push({
      title,
      keys: primary.keys,
      secondary_keys: secondary.keys,
      content,
      constant: e.constant === true,
      // A key this product cannot match would never fire as the card meant: the entry waits, disabled.
      enabled: e.enabled !== false && primary.plain && secondary.plain,
      order: Math.min(LORE_ORDER_MAX, Math.max(LORE_ORDER_MIN, order)),
      case_sensitive: e.case_sensitive === true || primary.caseSensitive === true,
      whole_words: extensions.match_whole_words !== false,
      scan_depth: null,
    });
  }
  if (!entries.length) return null;
  const b = book as Record<string, unknown>;
  const settings: LoreBookInput['settings'] = {};
  if (typeof b.token_budget === 'number' && b.token_budget > 0) settings.token_budget = Math.min(LORE_TOKEN_BUDGET_MAX, Math.round(b.token_budget));
  if (b.recursive_scanning === false) settings.recursion_depth = 0;
  return { ...(Object.keys(settings).length ? { settings } : {}), entries };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

// Keys as words; `/a|b|c/i` style keys as their alternatives when they are plain words.
function keyList(value: unknown, macros: (t: string) => string, regex: boolean): { keys: string[]; plain: boolean; caseSensitive?: boolean } {
  const keys: string[] = [];
  let plain = true;
  let caseSensitive: boolean | undefined;
  for (const item of Array.isArray(value) ? value : []) {
    const key = macros(str(item));
    if (!key) continue;
    const literal = /^\/(.+)\/([a-z]*)$/.exec(key);
    if (literal || regex) {
      const body = literal ? literal[1] : key;
      if (/[\\^$.*+?()[\]{}]/.test(body)) {
        plain = false;
        keys.push(key);
        continue;
      }
      if (literal) caseSensitive = !literal[2].includes('i');
      keys.push(...body.split('|').map((k) => k.trim()).filter(Boolean));
      continue;
    }
    keys.push(key);
  }
  return { keys: [...new Set(keys.map((k) => k.slice(0, LORE_KEY_MAX_LENGTH)))].slice(0, LORE_KEYS_MAX), plain, caseSensitive };
}
