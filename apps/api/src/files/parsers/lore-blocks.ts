import {
  LORE_CONTENT_MAX_LENGTH,
  LORE_ENTRY_LIMIT,
  LORE_KEY_MAX_LENGTH,
  LORE_KEYS_MAX,
  LORE_ORDER_MAX,
  LORE_ORDER_MIN,
  LORE_RECURSION_MAX,
  LORE_SCAN_DEPTH_MAX,
  LORE_TITLE_MAX_LENGTH,
  LORE_TOKEN_BUDGET_MAX,
  type LoreBookInput,
  type LoreEntryInput,
} from '@taleloom/contracts';

/*
 * Lore in a .txt or .md file (docs/lore-and-branches.md): a fenced block whose opening line is ```lore (or ~~~lore),
 * holding book settings first, then entries, each opened by a [Title] (or 【Title】) line, followed by
 * its option lines and then its content:
 *
 *   ```lore
 *   budget: 1500
 *   [Ashford Keep]
 *   keys: Ashford, the keep
 *   also: winter
 *   order: 10
 *   Ashford Keep guards the northern pass.
 *   ```
 *
 * Option names have English and Chinese spellings; lists are split on , ， 、 ; ；. A value that cannot
 * be read leaves the default. The blocks are taken out of the text.
 */

const OPEN = /^\s*(```|~~~)\s*lore\s*$/i;
const TITLE = /^\s*(?:\[([^\]]+)\]|【([^】]+)】)\s*$/;
const OPTION = /^\s*([A-Za-z _\u4e00-\u9fff]+?)\s*[:：]\s*(.*)$/;

const ENTRY_OPTIONS: Record<string, keyof LoreEntryInput> = {
  keys: 'keys', keywords: 'keys', key: 'keys', 关键词: 'keys', 关键字: 'keys',
  also: 'secondary_keys', secondary: 'secondary_keys', 'secondary keys': 'secondary_keys', 次要关键词: 'secondary_keys', 同时: 'secondary_keys',
  always: 'constant', constant: 'constant', 常驻: 'constant', 始终: 'constant',
  order: 'order', 顺序: 'order',
  case: 'case_sensitive', 'case sensitive': 'case_sensitive', 区分大小写: 'case_sensitive',
  words: 'whole_words', 'whole words': 'whole_words', 整词: 'whole_words',
  enabled: 'enabled', 启用: 'enabled',
  depth: 'scan_depth', scan: 'scan_depth', 'scan depth': 'scan_depth', 扫描深度: 'scan_depth', 扫描: 'scan_depth',
};
const BOOK_OPTIONS: Record<string, 'token_budget' | 'scan_depth' | 'recursion_depth'> = {
  budget: 'token_budget', 'token budget': 'token_budget', 预算: 'token_budget',
  scan: 'scan_depth', depth: 'scan_depth', 'scan depth': 'scan_depth', 扫描深度: 'scan_depth', 扫描: 'scan_depth',
  recursion: 'recursion_depth', 递归: 'recursion_depth',
};

/** The text without its lore blocks, and the lore they held (null when none). */
export function takeLoreBlocks(text: string): { content: string; lore: LoreBookInput | null } {
  // Most files have none: one search instead of a walk over every line.
  if (!/^[ \t]*(?:```|~~~)[ \t]*lore[ \t]*$/im.test(text)) return { content: text, lore: null };
  const lines = text.split('\n');
  const kept: string[] = [];
  const blocks: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]);
    if (!open) {
      kept.push(lines[i]);
      continue;
    }
    const block: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j].trim() !== open[1]) block.push(lines[j++]);
    blocks.push(block);
    i = j;
  }
  if (!blocks.length) return { content: text, lore: null };
  const book: LoreBookInput = { entries: [] };
  for (const block of blocks) readBlock(block, book);
  const content = kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  return { content, lore: book.entries.length || book.settings ? book : null };
}

function readBlock(lines: string[], book: LoreBookInput): void {
  let entry: LoreEntryInput | null = null;
  let body: string[] = [];
  let inOptions = false;
  const finish = () => {
    if (!entry) return;
    entry.content = body.join('\n').trim().slice(0, LORE_CONTENT_MAX_LENGTH);
    if (entry.content && book.entries.length < LORE_ENTRY_LIMIT) book.entries.push(entry);
  };
  for (const line of lines) {
    const title = TITLE.exec(line);
    if (title) {
      finish();
      entry = { title: (title[1] ?? title[2]).trim().slice(0, LORE_TITLE_MAX_LENGTH), content: '' };
      body = [];
      inOptions = true;
      continue;
    }
    const option = OPTION.exec(line);
    if (!entry) {
      // Before the first entry: the book's settings.
      const field = option && BOOK_OPTIONS[option[1].trim().toLowerCase()];
      if (field && option) {
        const limits = { token_budget: LORE_TOKEN_BUDGET_MAX, scan_depth: LORE_SCAN_DEPTH_MAX, recursion_depth: LORE_RECURSION_MAX };
        const n = number(option[2], 0, limits[field]);
        if (n !== null) book.settings = { ...book.settings, [field]: n };
      }
      continue;
    }
    const field = inOptions && option ? ENTRY_OPTIONS[option[1].trim().toLowerCase()] : undefined;
    if (field && option) {
      setOption(entry, field, option[2]);
      continue;
    }
    // The first line that is not an option starts the content.
    if (inOptions && !line.trim()) continue;
    inOptions = false;
    body.push(line);
  }
  finish();
}

function setOption(entry: LoreEntryInput, field: keyof LoreEntryInput, value: string): void {
  switch (field) {
    case 'keys':
    case 'secondary_keys':
      entry[field] = [...new Set(value.split(/[,，、;；]/).map((k) => k.trim().slice(0, LORE_KEY_MAX_LENGTH)).filter(Boolean))].slice(0, LORE_KEYS_MAX);
      return;
    case 'constant':
    case 'enabled':
    case 'whole_words': {
      const flag = yesNo(value);
      if (flag !== null) entry[field] = flag;
      return;
    }
    case 'case_sensitive': {
      const flag = /^\s*(sensitive|区分)\s*$/i.test(value) ? true : /^\s*(insensitive|不区分)\s*$/i.test(value) ? false : yesNo(value);
      if (flag !== null) entry.case_sensitive = flag;
      return;
    }
    case 'order': {
      const n = number(value, LORE_ORDER_MIN, LORE_ORDER_MAX);
      if (n !== null) entry.order = n;
      return;
    }
    case 'scan_depth': {
      const n = number(value, 0, LORE_SCAN_DEPTH_MAX);
      if (n !== null) entry.scan_depth = n;
      return;
    }
    default:
      return;
  }
}

function yesNo(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (['yes', 'true', 'on', 'y', '是', '开', '对'].includes(v)) return true;
  if (['no', 'false', 'off', 'n', '否', '关', '不'].includes(v)) return false;
  return null;
}

function number(value: string, min: number, max: number): number | null {
  if (!/^\s*-?\d+\s*$/.test(value)) return null;
  return Math.min(max, Math.max(min, Number.parseInt(value, 10)));
}
