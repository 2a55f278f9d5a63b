import {
  LORE_RECURSION_MAX,
  LORE_SCAN_DEPTH_MAX,
  LORE_TOKEN_BUDGET_MAX,
  type Language,
  type LoreBookInput,
  type LoreSettings,
} from '@taleloom/contracts';
import { cardBook } from './card-book';

/*
 * A lore book as a JSON file: SillyTavern's World Info file (`{entries: {"<uid>": {key, keysecondary,
 * comment, content, constant, selective, selectiveLogic, order, disable, caseSensitive, matchWholeWords,
 * ...}}}`, what its World Info panel exports and imports, and what TaleLoom's lore export writes), or a
 * bare V2/V3 `character_book` (`{entries: [...]}`). Both become the same entries as a card's book
 * (card-book.ts): keys, secondary keys, always-on, order, enabled, case and whole words. SillyTavern's
 * secondary-key logics other than "and any" (and all, not any, not all) have no equal here: such an entry
 * comes in disabled, its keys kept, so it never fires against the book's intent.
 */

/** The part of a lore export only TaleLoom reads (other programs keep or ignore it). */
export interface TaleLoomLoreExtension {
  /** The story's lore settings. */
  settings?: Partial<LoreSettings>;
}

/** True when `json` is a lore book file (World Info or a bare character_book). */
export function isLoreBookJson(json: unknown): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false;
  const entries = (json as { entries?: unknown }).entries;
  return Array.isArray(entries) || (!!entries && typeof entries === 'object');
}

/** The lore of a lore book file (null when it has no usable entry). */
export function loreBookFromJson(json: unknown, language: Language): LoreBookInput | null {
  if (!isLoreBookJson(json)) return null;
  const root = json as Record<string, unknown>;
  const raw = root.entries;
  if (Array.isArray(raw)) return cardBook(root, '', language);
  const worldInfo = Object.values(raw as Record<string, unknown>)
    // Entries without content are skipped (as card-book.ts does), so what follows lines up with its answer.
    .filter((e): e is Record<string, unknown> => !!e && typeof e === 'object' && typeof (e as { content?: unknown }).content === 'string' && !!(e as { content: string }).content.trim())
    // As SillyTavern lists them: by display index, then uid.
    .sort((a, b) => num(a.displayIndex, num(a.uid, 0)) - num(b.displayIndex, num(b.uid, 0)) || num(a.uid, 0) - num(b.uid, 0));
  const entries = worldInfo.map((e) => {
    const secondary = Array.isArray(e.keysecondary) ? e.keysecondary : [];
    const logic = num(e.selectiveLogic, 0);
    const unsupportedLogic = e.selective !== false && secondary.length > 0 && logic !== 0;
    return {
      keys: e.key,
      secondary_keys: secondary,
      // SillyTavern applies secondary keys when `selective` is on (its default).
      selective: e.selective !== false,
      content: e.content,
      comment: e.comment,
      constant: e.constant === true,
      insertion_order: typeof e.order === 'number' ? e.order : undefined,
      enabled: e.disable !== true && !unsupportedLogic,
      case_sensitive: e.caseSensitive === true,
      extensions: { match_whole_words: e.matchWholeWords === false ? false : true, scan_depth: taleLoomDepth(e) },
    };
  });
  const book = cardBook({ entries }, '', language);
  if (!book) return null;
  // TaleLoom's own export: each entry's scan depth in characters, and the story's settings.
  book.entries.forEach((entry, i) => {
    const depth = entries[i]?.extensions.scan_depth;
    if (depth !== null && depth !== undefined) entry.scan_depth = depth;
  });
  const settings = taleLoomSettings(root);
  return settings ? { ...book, settings: { ...book.settings, ...settings } } : book;
}

function taleLoomDepth(entry: Record<string, unknown>): number | null {
  const ext = entry.extensions && typeof entry.extensions === 'object' ? (entry.extensions as Record<string, unknown>).taleloom : undefined;
  const depth = ext && typeof ext === 'object' ? (ext as { scan_depth?: unknown }).scan_depth : undefined;
  return typeof depth === 'number' && Number.isInteger(depth) && depth >= 0 ? Math.min(depth, LORE_SCAN_DEPTH_MAX) : null;
}

function taleLoomSettings(root: Record<string, unknown>): Partial<LoreSettings> | null {
  const ext = root.extensions && typeof root.extensions === 'object' ? (root.extensions as Record<string, unknown>).taleloom : undefined;
  const settings = ext && typeof ext === 'object' ? (ext as TaleLoomLoreExtension).settings : undefined;
  if (!settings || typeof settings !== 'object') return null;
  const out: Partial<LoreSettings> = {};
  const limits: Record<keyof LoreSettings, number> = { scan_depth: LORE_SCAN_DEPTH_MAX, token_budget: LORE_TOKEN_BUDGET_MAX, recursion_depth: LORE_RECURSION_MAX };
  for (const field of Object.keys(limits) as (keyof LoreSettings)[]) {
    const v = settings[field];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) out[field] = Math.min(v, limits[field]);
  }
  return Object.keys(out).length ? out : null;
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}
