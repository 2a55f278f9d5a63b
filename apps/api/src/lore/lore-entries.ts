import {
  DEFAULT_LORE_SETTINGS,
  ErrorCode,
  LORE_DEFAULT_ORDER,
  LORE_ENTRY_LIMIT,
  LORE_TOTAL_CHARS_MAX,
  type LoreEntry,
  type LoreEntryOptionsDto,
  type LoreSettings,
  type UpdateLoreSettingsDto,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException } from '../common/app-exception';

/** What a request may set on an entry (title and content included). */
export type LoreEntryFields = Partial<Omit<LoreEntry, 'id'>> & Pick<LoreEntryOptionsDto, 'keys' | 'secondary_keys'>;

/** A new entry's id: unique within the story (and beyond). */
export const newEntryId = (): string => new Types.ObjectId().toHexString();

// Keywords trimmed, blanks and repeats dropped (the order kept).
function keyList(keys: string[] | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of keys ?? []) {
    const key = raw.trim();
    if (key && !seen.has(key)) {
      seen.add(key);
      out.push(key);
    }
  }
  return out;
}

/** An entry with `fields` over `base` (or over the defaults), every field in its stored form. */
export function makeEntry(id: string, fields: LoreEntryFields, base?: LoreEntry): LoreEntry {
  const pick = <K extends keyof LoreEntry>(key: K, fallback: LoreEntry[K]): LoreEntry[K] =>
    fields[key as keyof LoreEntryFields] !== undefined ? (fields[key as keyof LoreEntryFields] as LoreEntry[K]) : (base?.[key] ?? fallback);
  return {
    id,
    title: (pick('title', '') ?? '').trim(),
    keys: fields.keys !== undefined ? keyList(fields.keys) : (base?.keys ?? []),
    secondary_keys: fields.secondary_keys !== undefined ? keyList(fields.secondary_keys) : (base?.secondary_keys ?? []),
    content: (pick('content', '') ?? '').trim(),
    constant: pick('constant', false),
    enabled: pick('enabled', true),
    order: pick('order', LORE_DEFAULT_ORDER),
    case_sensitive: pick('case_sensitive', false),
    whole_words: pick('whole_words', true),
    scan_depth: pick('scan_depth', null) ?? null,
  };
}

/** Settings with the fields sent over the current ones (or the defaults). */
export function makeSettings(fields: UpdateLoreSettingsDto | undefined, base?: Partial<LoreSettings> | null): LoreSettings {
  const current = { ...DEFAULT_LORE_SETTINGS, ...(base ?? {}) };
  return {
    scan_depth: fields?.scan_depth ?? current.scan_depth,
    token_budget: fields?.token_budget ?? current.token_budget,
    recursion_depth: fields?.recursion_depth ?? current.recursion_depth,
  };
}

/** The story-wide limits: how many entries, and how much content in all. */
export function checkLimits(entries: LoreEntry[]): void {
  if (entries.length > LORE_ENTRY_LIMIT) throw new AppException(ErrorCode.LORE_ENTRY_LIMIT, undefined, { limit: LORE_ENTRY_LIMIT.toLocaleString('en') });
  let chars = 0;
  for (const e of entries) chars += e.content.length + e.title.length;
  if (chars > LORE_TOTAL_CHARS_MAX) throw new AppException(ErrorCode.LORE_TOO_LARGE, undefined, { limit: LORE_TOTAL_CHARS_MAX.toLocaleString('en') });
}

/** Stored entries read back whole (documents written by older versions may lack fields). */
export function storedEntries(entries: unknown): LoreEntry[] {
  if (!Array.isArray(entries)) return [];
  return entries
    .filter((e): e is LoreEntry => !!e && typeof e === 'object' && typeof (e as LoreEntry).id === 'string')
    .map((e) => makeEntry(e.id, e));
}
