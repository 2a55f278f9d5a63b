import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  ErrorCode,
  type CreateLoreEntryDto,
  type ImportLoreDto,
  type Language,
  type LoreBookData,
  type LoreBookInputDto,
  type LoreEntry,
  type UpdateLoreEntryDto,
  type UpdateLoreSettingsDto,
} from '@taleloom/contracts';
import { LRUCache } from 'lru-cache';
import type { Types } from 'mongoose';
import { AppException, RetriesExhausted } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { toObjectId } from '../common/object-id';
import { StoryRepository } from '../stories/story.repository';
import { foldCase, isSpacedWordUnit } from './keyword-matcher';
import { compileLore, type CompiledLore } from './lore-activation';
import { loreToWorldInfo } from './lore-export';
import { checkLimits, makeEntry, makeSettings, newEntryId, storedEntries } from './lore-entries';
import { LoreRepository, type LoreRecord } from './lore.repository';

const WRITE_ATTEMPTS = 8;
const COPY_SUFFIX: Record<Language, string> = { en: ' (copy)', 'zh-CN': '（副本）' };

/** A story's lore as this process knows it: compiled at a version, or none (no lore document). */
interface KnownLore {
  version: number | null;
  lore: CompiledLore | null;
}

const NO_LORE: KnownLore = { version: null, lore: null };

/**
 * A story's lore: its entries and settings (owner only: anyone else's story is not found), and the
 * compiled form sends use, cached per story and version in this process.
 */
@Injectable()
export class LoreService implements OnModuleInit {
  private readonly logger = new Logger('LoreService');
  // Bounded by entries: a story without lore costs one, a lore book one more per entry.
  private readonly compiled = new LRUCache<string, KnownLore>({ maxSize: 20_000, sizeCalculation: (known) => 1 + (known.lore?.entries.length ?? 0) });

  constructor(
    private readonly lore: LoreRepository,
    private readonly stories: StoryRepository,
  ) {}

  // The matcher's character tables are built once, at start-up rather than on the first send.
  onModuleInit(): void {
    foldCase('a');
    isSpacedWordUnit(97);
  }

  async book(user: AuthUser, storyId: string): Promise<LoreBookData> {
    const id = await this.own(user, storyId);
    return view(await this.lore.find(id));
  }

  /** The lore as a file: a SillyTavern World Info book (lore-export.ts), named after the story. */
  async exportFile(user: AuthUser, storyId: string): Promise<{ name: string; book: Record<string, unknown> }> {
    const story = await this.stories.own(user.userID, storyId);
    const name = story.name?.trim() ?? '';
    return { name, book: loreToWorldInfo(view(await this.lore.find(story._id)), name) };
  }

  create(user: AuthUser, storyId: string, dto: CreateLoreEntryDto): Promise<LoreBookData> {
    return this.change(user, storyId, (entries) => [...entries, makeEntry(newEntryId(), fields(dto))]);
  }

  update(user: AuthUser, storyId: string, entryId: string, dto: UpdateLoreEntryDto): Promise<LoreBookData> {
    const set = fields(dto);
    if (Object.values(set).every((v) => v === undefined)) throw new AppException(ErrorCode.NOTHING_TO_UPDATE);
    return this.change(user, storyId, (entries) => {
      const at = indexOf(entries, entryId);
      return entries.map((e, i) => (i === at ? makeEntry(e.id, set, e) : e));
    });
  }

  remove(user: AuthUser, storyId: string, entryId: string): Promise<LoreBookData> {
    return this.change(user, storyId, (entries) => {
      const at = indexOf(entries, entryId);
      return entries.filter((_, i) => i !== at);
    });
  }

  /** A copy of the entry right after it, titled as a copy. */
  duplicate(user: AuthUser, storyId: string, entryId: string, language: Language): Promise<LoreBookData> {
    return this.change(user, storyId, (entries) => {
      const at = indexOf(entries, entryId);
      const source = entries[at];
      const title = `${source.title}${COPY_SUFFIX[language]}`.slice(0, 200);
      return [...entries.slice(0, at + 1), makeEntry(newEntryId(), { title }, source), ...entries.slice(at + 1)];
    });
  }

  settings(user: AuthUser, storyId: string, dto: UpdateLoreSettingsDto): Promise<LoreBookData> {
    if (dto.scan_depth === undefined && dto.token_budget === undefined && dto.recursion_depth === undefined) {
      throw new AppException(ErrorCode.NOTHING_TO_UPDATE);
    }
    return this.change(user, storyId, (entries) => entries, dto);
  }

  /** Entries from a file, after the story's own or instead of them; the file's settings replace the story's. */
  import(user: AuthUser, storyId: string, dto: ImportLoreDto): Promise<LoreBookData> {
    const incoming = bookEntries(dto.book);
    return this.change(user, storyId, (entries) => (dto.mode === 'replace' ? incoming : [...entries, ...incoming]), dto.book.settings);
  }

  /** A new story's lore (from the create screen's imported file); the story was just made by `userID`. */
  async start(storyId: Types.ObjectId, userID: string, book: LoreBookInputDto): Promise<void> {
    const entries = bookEntries(book);
    checkLimits(entries);
    const next = { settings: makeSettings(book.settings), entries };
    if (await this.lore.write(storyId, userID, 0, next)) this.known$(storyId, { ...next, version: 1 });
  }

  // Lore this process just wrote, compiled for the story's next send, off the request that wrote it (a
  // failure only costs that send a read).
  private known$(storyId: Types.ObjectId, record: LoreRecord): void {
    setImmediate(() => {
      try {
        const compiled = compileRecord(record);
        this.compiled.set(storyId.toHexString(), { version: compiled.version, lore: compiled });
      } catch (error) {
        this.logger.warn(`compiling the lore of story ${storyId.toHexString()}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  /** A clone's lore: a copy of what its source had (or of the source's public version). */
  async copy(from: { storyId: string; slot: number | null }, to: Types.ObjectId, userID: string): Promise<void> {
    const source = from.slot === null ? await this.lore.find(toObjectId(from.storyId)) : await this.lore.slot(from.storyId, from.slot);
    // The clone's first send finds its lore known (compiled, or none).
    if (!source || !source.entries?.length) return this.none(to);
    const next = { settings: makeSettings(undefined, source.settings), entries: storedEntries(source.entries) };
    if (await this.lore.write(to, userID, 0, next)) this.known$(to, { ...next, version: 1 });
  }

  /** The story's lore saved into a slot (-1: the public version). */
  snapshot(storyId: string, slot: number): Promise<void> {
    return this.lore.snapshot(toObjectId(storyId), slot);
  }

  dropSnapshot(storyId: string, slot: number): Promise<void> {
    return this.lore.deleteSlot(storyId, slot);
  }

  /** The lore a slot holds comes back (a slot saved before stories had lore leaves the lore as it is). */
  async restore(storyId: string, userID: string, slot: number): Promise<void> {
    const saved = await this.lore.slot(storyId, slot);
    if (!saved) return;
    const id = toObjectId(storyId);
    const next = { settings: makeSettings(undefined, saved.settings), entries: storedEntries(saved.entries) };
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const current = await this.lore.find(id);
      if (await this.lore.write(id, userID, current?.version ?? 0, next)) return;
    }
    throw new RetriesExhausted('restoring lore');
  }

  /**
   * The story's lore ready for a send (null: none). Cached per story: a send reads only the version
   * when its cached lore (or its having none) is current, and compiles again only after a change.
   */
  async forPrompt(storyId: Types.ObjectId): Promise<CompiledLore | null> {
    const key = storyId.toHexString();
    const cached = this.compiled.get(key);
    if (cached) {
      const version = await this.lore.version(storyId);
      if (version === cached.version) return cached.lore;
      if (version === null) {
        this.compiled.set(key, NO_LORE);
        return null;
      }
    }
    const record = await this.lore.find(storyId);
    if (!record) {
      this.compiled.set(key, NO_LORE);
      return null;
    }
    const compiled = compileRecord(record);
    this.compiled.set(key, { version: compiled.version, lore: compiled });
    return compiled;
  }

  /**
   * The lore this process last knew the story to have, without reading it (undefined: not known here).
   * A guess (a send's early start): `forPrompt` says what it is.
   */
  known(storyId: string): CompiledLore | null | undefined {
    return this.compiled.get(storyId)?.lore;
  }

  /** A story made without lore: its first send need not read it to know. */
  none(storyId: Types.ObjectId): void {
    this.compiled.set(storyId.toHexString(), NO_LORE);
  }

  private async own(user: AuthUser, storyId: string): Promise<Types.ObjectId> {
    const id = toObjectId(storyId);
    if (!(await this.stories.isOwn(user.userID, storyId))) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return id;
  }

  // Read, change, write if nobody wrote in between; again when someone did.
  private async change(user: AuthUser, storyId: string, edit: (entries: LoreEntry[]) => LoreEntry[], settings?: UpdateLoreSettingsDto): Promise<LoreBookData> {
    const id = await this.own(user, storyId);
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const current = await this.lore.find(id);
      const entries = edit(storedEntries(current?.entries));
      checkLimits(entries);
      const next = { settings: makeSettings(settings, current?.settings), entries };
      const version = current?.version ?? 0;
      if (await this.lore.write(id, user.userID, version, next)) {
        const record = { ...next, version: version + 1 };
        // The next send finds it compiled (off this request).
        this.known$(id, record);
        return view(record);
      }
    }
    throw new RetriesExhausted('writing lore');
  }
}

function compileRecord(record: LoreRecord): CompiledLore {
  return compileLore(Number(record.version ?? 0), makeSettings(undefined, record.settings), storedEntries(record.entries));
}

function view(record: LoreRecord | null): LoreBookData {
  return { version: Number(record?.version ?? 0), settings: makeSettings(undefined, record?.settings), entries: storedEntries(record?.entries) };
}

function indexOf(entries: LoreEntry[], entryId: string): number {
  const at = entries.findIndex((e) => e.id === entryId);
  if (at < 0) throw new AppException(ErrorCode.LORE_ENTRY_NOT_FOUND);
  return at;
}

// The entry fields of a request (its language left out).
function fields(dto: CreateLoreEntryDto | UpdateLoreEntryDto) {
  const { language: _language, ...rest } = dto;
  return rest;
}

function bookEntries(book: LoreBookInputDto): LoreEntry[] {
  return (book.entries ?? []).map((e) => makeEntry(newEntryId(), fields(e)));
}
