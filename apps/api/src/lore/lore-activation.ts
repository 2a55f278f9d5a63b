import type { LoreEntry, LoreFiring, LoreSettings, LoreSource } from '@taleloom/contracts';
import { KeywordMatcher, type KeywordPattern } from './keyword-matcher';

/**
 * A story's lore made ready for sends: its enabled entries in prompt order (always-on first, then by
 * `order`, then as listed) and one matcher over all their keywords. Built once per lore version.
 */
export interface CompiledLore {
  version: number;
  settings: LoreSettings;
  entries: LoreEntry[];
  matcher: KeywordMatcher;
  // What each matcher id is: an entry's primary or secondary keyword.
  keys: { entry: number; secondary: boolean; text: string }[];
  // The farthest back any keyword entry scans.
  maxDepth: number;
  // Each entry's tokens, and its content as sent where rendering changed it, per way of rendering and
  // measuring (activateLore's `memo`).
  measured: Map<string, { content: (string | undefined)[]; tokens: Int32Array }>;
}

// Ways of rendering kept per compiled lore (a send's differ by the player's name).
const MEMOS_KEPT = 8;

export function compileLore(version: number, settings: LoreSettings, all: LoreEntry[]): CompiledLore {
  const entries = all
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => entry.enabled)
    .sort((a, b) => Number(b.entry.constant) - Number(a.entry.constant) || a.entry.order - b.entry.order || a.index - b.index)
    .map(({ entry }) => entry);
  const keys: CompiledLore['keys'] = [];
  const patterns: KeywordPattern[] = [];
  let maxDepth = 0;
  entries.forEach((entry, e) => {
    const add = (text: string, secondary: boolean) => {
      const key = text.trim();
      if (!key) return;
      patterns.push({ text: key, caseSensitive: entry.case_sensitive, wholeWords: entry.whole_words, id: keys.length });
      keys.push({ entry: e, secondary, text: key });
    };
    entry.keys.forEach((k) => add(k, false));
    entry.secondary_keys.forEach((k) => add(k, true));
    if (!entry.constant && entry.keys.some((k) => k.trim())) maxDepth = Math.max(maxDepth, entry.scan_depth ?? settings.scan_depth);
  });
  return { version, settings, entries, matcher: new KeywordMatcher(patterns), keys, maxDepth, measured: new Map() };
}

/** What is scanned for keywords: the story text (its newest part), the player's line and the author's note. */
export interface LoreScan {
  text: string;
  line: string;
  note: string;
  /** Characters of `text` every entry scans, whatever it asks (the summary's fold scans all it folds). */
  depth?: number;
}

/** An entry in the prompt: why it fired, its content as sent and its tokens. */
export interface FiredEntry {
  entry: LoreEntry;
  firing: LoreFiring;
  content: string;
  tokens: number;
}

export interface LoreActivation {
  fired: FiredEntry[];
  /** Entries that fired but did not fit the budget. */
  leftOut: FiredEntry[];
  used: number;
}

interface Found {
  keyword: string;
  source: LoreSource;
  viaTitle?: string;
  depth: number;
}

/**
 * Which entries enter the prompt. An entry fires when one of its keywords appears in the text it
 * scans (the newest `scan_depth` characters of the story, the player's line, the author's note) and,
 * when it has secondary keywords, one of those too; always-on entries need nothing. Entries that fired
 * are taken in prompt order while they fit `budget` tokens (one that does not fit is left out and the
 * next ones still tried). The content of entries taken is then scanned in turn, up to the story's
 * recursion depth, and what that fires is taken the same way. `measure` gives an entry's tokens as
 * the prompt will send it; `render` its content as sent (placeholders resolved). A caller that always
 * renders and measures the same way for the same `memo` name gets each entry's content and tokens from
 * the compiled lore after the first time (a wide window fires hundreds of entries a send, most of them
 * left out, each rendered and measured to say so).
 */
export function activateLore(
  lore: CompiledLore,
  scan: LoreScan,
  budget: number,
  measure: (content: string) => number,
  render: (content: string) => string = (c) => c,
  memo?: string,
): LoreActivation {
  const { entries, keys, settings } = lore;
  let known = memo === undefined ? undefined : lore.measured.get(memo);
  if (memo !== undefined && !known) {
    if (lore.measured.size >= MEMOS_KEPT) lore.measured.clear();
    known = { content: new Array<string | undefined>(entries.length), tokens: new Int32Array(entries.length).fill(-1) };
    lore.measured.set(memo, known);
  }
  const primary: (Found | undefined)[] = new Array(entries.length);
  const secondary: (Found | undefined)[] = new Array(entries.length);
  const decided = new Uint8Array(entries.length);
  // The first hit of each keyword kind of an entry is kept (a wide window has thousands of hits).
  const record = (id: number, source: LoreSource, depth: number, viaTitle?: string) => {
    const key = keys[id];
    const slot = key.secondary ? secondary : primary;
    if (slot[key.entry]) return;
    const found: Found = { keyword: key.text, source, depth };
    if (viaTitle !== undefined) found.viaTitle = viaTitle;
    slot[key.entry] = found;
  };

  const text = scan.text;
  const maxDepth = scan.depth ?? lore.maxDepth;
  if (maxDepth > 0 && text) {
    const windowStart = Math.max(0, text.length - maxDepth);
    lore.matcher.scan(
      text,
      (id, start) => {
        const entry = entries[keys[id].entry];
        // Each entry looks only as far back as it asks.
        if (start < text.length - (scan.depth ?? entry.scan_depth ?? settings.scan_depth)) return;
        record(id, 'text', 0);
      },
      windowStart,
    );
  }
  if (scan.line) lore.matcher.scan(scan.line, (id) => record(id, 'line', 0));
  if (scan.note) lore.matcher.scan(scan.note, (id) => record(id, 'author_note', 0));

  const fired: FiredEntry[] = [];
  const leftOut: FiredEntry[] = [];
  let used = 0;
  // The prompt rank (index in `entries`) of each entry taken.
  const rank = new Map<FiredEntry, number>();
  let fresh: FiredEntry[] = [];
  for (let depth = 0; ; depth++) {
    // Candidates of this round, in prompt order (entries are sorted so).
    for (let e = 0; e < entries.length; e++) {
      if (decided[e]) continue;
      const entry = entries[e];
      const hit = primary[e];
      const qualifies = entry.constant || (hit !== undefined && (entry.secondary_keys.length === 0 || secondary[e] !== undefined));
      if (!qualifies) continue;
      decided[e] = 1;
      let content: string;
      let tokens: number;
      if (known && known.tokens[e] >= 0) {
        content = known.content[e] ?? entry.content;
        tokens = known.tokens[e];
      } else {
        content = render(entry.content);
        tokens = measure(content);
        if (known) {
          // Only a content that rendering changed (a placeholder) is kept: the rest is the entry's own.
          if (content !== entry.content) known.content[e] = content;
          known.tokens[e] = tokens;
        }
      }
      const firing: LoreFiring = {
        entryId: entry.id,
        title: entry.title,
        constant: entry.constant,
        keyword: entry.constant ? '' : hit!.keyword,
        secondaryKeyword: entry.constant ? '' : (secondary[e]?.keyword ?? ''),
        source: entry.constant ? null : hit!.source,
        depth: entry.constant ? 0 : hit!.depth,
      };
      if (!entry.constant && hit!.viaTitle) firing.viaTitle = hit!.viaTitle;
      const item = { entry, firing, content, tokens };
      if (used + tokens <= budget) {
        used += tokens;
        fired.push(item);
        fresh.push(item);
        rank.set(item, e);
      } else {
        leftOut.push(item);
      }
    }
    if (depth >= settings.recursion_depth || fresh.length === 0) break;
    const scanned = fresh;
    fresh = [];
    for (const item of scanned) {
      const own = rank.get(item);
      lore.matcher.scan(item.content, (id) => {
        if (keys[id].entry !== own) record(id, 'entry', depth + 1, item.entry.title);
      });
    }
  }
  // The prompt keeps the entries' order, whatever round they fired in.
  fired.sort((a, b) => rank.get(a)! - rank.get(b)!);
  return { fired, leftOut, used };
}
