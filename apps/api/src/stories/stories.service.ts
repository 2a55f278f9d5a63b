import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  CUSTOM_MODEL_TYPE,
  DEFAULT_PLAY_MODE,
  DEFAULT_STORY_SETTINGS,
  ErrorCode,
  LORE_TOTAL_CHARS_MAX,
  STORY_LIST_DEFAULT_PAGE_SIZE,
  STORY_TEXT_MAX_LENGTH,
  applyMainTextEdit,
  loreBookChars,
  type CheckStoryData,
  type ClonePublicStoryDto,
  type CreateStoryDto,
  type MainTextEditDto,
  type RenameStoryDto,
  type StoryData,
  type StoryIdData,
  type StoryListData,
  type StoryListItem,
  type StoryListQueryDto,
  type UpdateStoryDto,
} from '@taleloom/contracts';
import type { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { toObjectId } from '../common/object-id';
import { CustomModelsService } from '../custom-models/custom-models.service';
import { StoryArchiveRepository } from './story-archive.repository';
import { StoryCreated, StoryPublished, StoryUnpublished, type StoryOrigin } from './story.events';
import { StoryNumbersService } from './story-numbers.service';
import { StoryRepository, type KnownText, type StoryRecord, type TextState } from './story.repository';
import type { StoryDocument } from './story.schema';
import { StorySpreadService } from './story-spread.service';
import { textSnippets, toSeconds } from './story-text';
import { pickState, toListItem, toStoryData } from './story-view';

// The public version's archive slot.
const PUBLIC_SLOT = -1;

/** Stories and the square: create, read, change, list, publish, clone. */
@Injectable()
export class StoriesService {
  private readonly logger = new Logger('StoriesService');

  constructor(
    private readonly stories: StoryRepository,
    private readonly archives: StoryArchiveRepository,
    private readonly numbers: StoryNumbersService,
    private readonly spread: StorySpreadService,
    private readonly customModels: CustomModelsService,
    private readonly events: EventEmitter2,
  ) {}

  /** A new original story; the prologue is also the start of its text. */
  async create(user: AuthUser, dto: CreateStoryDto): Promise<StoryIdData> {
    const { language: _language, 'hidden-settings': hidden, lore, ...fields } = dto;
    // The lore is kept by the lore feature (told below); its size is checked before anything is made.
    if (lore && loreBookChars(lore.entries ?? []) > LORE_TOTAL_CHARS_MAX) {
      throw new AppException(ErrorCode.LORE_TOO_LARGE, undefined, { limit: LORE_TOTAL_CHARS_MAX.toLocaleString('en') });
    }
    await this.checkModelChoice(user.userID, fields);
    const text = dto.prologue_and_characters;
    const story = await this.stories.create({
      ...DEFAULT_STORY_SETTINGS,
      ...fields,
      name: dto.name ?? '',
      play_mode: dto.play_mode ?? DEFAULT_PLAY_MODE,
      hidden_settings: hidden ?? '',
      main_text: text,
      ...textSnippets(text),
      user: user.userID,
      author: user.userName,
      writer: user.userName,
      storyNo: await this.numbers.next(),
      userID: user.userID,
      time: new Date(),
    });
    return this.created(story, user.userID, null, lore ?? null);
  }

  // Every new story (original or clone) is announced; what others
  // prepare for it (play: its turn document) is waited for, and a failure there is logged, not fatal.
  private async created(story: StoryDocument, userID: string, origin: StoryOrigin | null = null, lore: CreateStoryDto['lore'] | null = null): Promise<StoryIdData> {
    const id = story._id.toHexString();
    await this.events
      .emitAsync(StoryCreated.event, new StoryCreated(id, userID, origin, lore))
      .catch((error: unknown) => this.logger.warn(`preparing story ${id}: ${error instanceof Error ? error.message : String(error)}`));
    return { id };
  }

  /** The play record: the owner's own, or the public version of someone else's (read-only). */
  async get(user: AuthUser, id: string): Promise<StoryData> {
    const story = await this.stories.byId(id);
    if (story && story.userID === user.userID) return toStoryData(story, story, true);
    if (story?.permission !== '1') throw new AppException(ErrorCode.STORY_NOT_FOUND);
    const snapshot = await this.publicSnapshot(story._id);
    return toStoryData(story, snapshot.state, false);
  }

  /** The list item of one story the caller owns or can see in the square. */
  async summary(user: AuthUser, id: string): Promise<StoryListItem> {
    const story = await this.stories.listItem(id);
    if (story && story.userID === user.userID) return toListItem(story, false);
    if (story?.permission !== '1') throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return toListItem(story, true);
  }

  /** Changes text, play mode, model, settings or name of the caller's own story. */
  async update(user: AuthUser, id: string, dto: UpdateStoryDto): Promise<StoryData> {
    const { language: _language, branch_id: branchId, main_text_edit: edit, ...fields } = dto;
    const set: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length === 0 && !edit) throw new AppException(ErrorCode.NOTHING_TO_UPDATE);
    await this.checkModelChoice(user.userID, set);
    // An edit of the text is applied to the stored text, and written only if that text is still the one read.
    const textIs = edit ? await this.applyEdit(user.userID, id, edit, set, branchId) : undefined;
    if (typeof set.main_text === 'string') Object.assign(set, textSnippets(set.main_text), { time: new Date() });
    // A story of an activity keeps the play mode the activity gave it (its tasks are locked too).
    if (dto.play_mode !== undefined) {
      if (await this.stories.activityOf(user.userID, id)) throw new AppException(ErrorCode.TASKS_LOCKED);
    }
    // The text and its summary are the played branch's: an edit made while another branch was
    // played elsewhere is refused instead of landing on it.
    const ofBranch = set.main_text !== undefined || dto.previous_summary !== undefined ? branchId : undefined;
    const story = await this.stories.update(user.userID, id, set, ofBranch, textIs);
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return toStoryData(story, story, true);
  }

  /**
   * Puts into `set.main_text` the stored text with `edit` applied (BRANCH_CHANGED when made for another
   * branch than the one played, STORY_TEXT_CHANGED when the stored text is not the one the edit was made
   * on) and answers what the write is conditioned on.
   */
  private async applyEdit(userID: string, id: string, edit: MainTextEditDto, set: Record<string, unknown>, branchId?: string): Promise<TextState> {
    const { main_text: current, playedBranch, ...textIs } = await this.stories.textOf(userID, id);
    // Made for a branch the story no longer plays (switched on another device): said as such.
    if (branchId && playedBranch !== branchId) throw new AppException(ErrorCode.BRANCH_CHANGED);
    const next = applyMainTextEdit(current, edit);
    if (next === undefined) throw new AppException(ErrorCode.STORY_TEXT_CHANGED);
    if (next.length > STORY_TEXT_MAX_LENGTH) {
      throw new AppException(ErrorCode.STORY_TEXT_TOO_LONG, undefined, { limit: STORY_TEXT_MAX_LENGTH.toLocaleString('en') });
    }
    set.main_text = next;
    return textIs;
  }

  // A custom model chosen for a story must be one of the user's own (stored with its saved spelling).
  private async checkModelChoice(userID: string, fields: { model_type?: unknown; model_name?: unknown }): Promise<void> {
    if (fields.model_type !== CUSTOM_MODEL_TYPE) return;
    fields.model_name = await this.customModels.canonicalName(userID, typeof fields.model_name === 'string' ? fields.model_name : '');
  }

  async rename(user: AuthUser, dto: RenameStoryDto): Promise<StoryListItem> {
    const story = await this.stories.updateListed(user.userID, dto.id, { name: dto.storyName });
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return toListItem(story, false);
  }

  /** My stories, or with `public=true` the square; pinned first, then newest; texts are never loaded. */
  async list(user: AuthUser, query: StoryListQueryDto): Promise<StoryListData> {
    const square = query.public === 'true';
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? STORY_LIST_DEFAULT_PAGE_SIZE;
    // One more than a page tells whether another follows, without counting every match.
    const rows = await this.stories.page({ owner: square ? undefined : user.userID, search: query.search?.trim() }, (page - 1) * pageSize, pageSize + 1);
    return {
      list: rows.slice(0, pageSize).map((s) => toListItem(s, square)),
      pagination: { page, pageSize, hasMore: rows.length > pageSize },
    };
  }

  /** Whether the caller owns the story; someone else's private story is not found. */
  async check(user: AuthUser, id: string): Promise<CheckStoryData> {
    const story = await this.stories.access(id);
    const mine = story?.userID === user.userID;
    if (!story || (!mine && story.permission !== '1')) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return { userHasStory: mine, isPublic: story.permission === '1', originUserID: story.userID };
  }

  /** Clones the public version of someone's story into the caller's list. */
  async clonePublic(user: AuthUser, dto: ClonePublicStoryDto): Promise<StoryIdData> {
    const story = await this.stories.publicOf(toObjectId(dto.userID).toHexString(), dto.storyID);
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    const snapshot = await this.publicSnapshot(story._id);
    const clone = await this.spread.clone(story, pickState(snapshot.state), user);
    return this.created(clone, user.userID, { storyId: story._id.toHexString(), slot: PUBLIC_SLOT });
  }

  /** Clones the caller's own story as it is now (e.g. before playing on from a restore point). */
  async cloneOwn(user: AuthUser, id: string): Promise<StoryIdData> {
    const story = await this.stories.own(user.userID, id);
    const clone = await this.spread.clone(story, pickState(story), user);
    return this.created(clone, user.userID, { storyId: story._id.toHexString(), slot: null });
  }

  /** Publishes (or updates the public version): snapshot into archive slot -1, then mark public. */
  async publish(user: AuthUser, id: string): Promise<StoryListItem> {
    const story = await this.stories.own(user.userID, id);
    const now = new Date();
    // Snapshot first: a story is never public without the version others clone.
    await this.writePublicVersion(story, now);
    const updated = await this.stories.updateListed(story.userID, story._id, {
      permission: '1',
      publishedAt: now,
      time: now,
      publicFirstLine: story.firstLine,
      publicLastLine: story.lastLine,
    });
    if (!updated) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    // A concurrent "make private" may have removed the snapshot between the two writes above.
    await this.ensurePublicVersion(story._id);
    return toListItem(updated, false);
  }

  /** Makes the story private: hidden from the square and links at once, then the public version goes. */
  async unpublish(user: AuthUser, id: string): Promise<StoryListItem> {
    const story = await this.stories.updateListed(user.userID, id, { permission: '0', publishedAt: null, publicFirstLine: '', publicLastLine: '' });
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    await this.archives.deletePublic(story._id.toHexString());
    await this.events.emitAsync(StoryUnpublished.event, new StoryUnpublished(story._id.toHexString()));
    // A concurrent publish may have made it public again after the first write: it keeps its snapshot.
    await this.ensurePublicVersion(story._id);
    return toListItem(story, false);
  }

  private async writePublicVersion(story: StoryRecord, now: Date): Promise<void> {
    await this.archives.savePublic(story._id.toHexString(), {
      time: toSeconds(now),
      current_word_count: story.charCount,
      story_ending: story.lastLine,
      state: pickState(story),
    });
    // What others keep beside the public version (the lore) is snapshotted with it.
    await this.events.emitAsync(StoryPublished.event, new StoryPublished(story._id.toHexString()));
  }

  // A public story always has its public version (slot -1): written again from the story when missing.
  private async ensurePublicVersion(storyId: Types.ObjectId): Promise<void> {
    const current = await this.stories.byId(storyId);
    if (current?.permission !== '1') return;
    if (!(await this.archives.hasPublic(storyId.toHexString()))) await this.writePublicVersion(current, new Date());
  }

  /**
   * An accepted turn: `piece` appended to the caller's story (see StoryRepository.append; with
   * `branchId`, only while the story plays that branch) with its own counters, then counted on the
   * stories it was cloned from (StorySpreadService.creditTurn). Answers the text after it and what was
   * appended exactly.
   */
  async appendTurn(userID: string, id: string, piece: string, branchId?: string, known?: KnownText | null): Promise<{ text: string; appended: string; stateRev: number }> {
    const { credit, ...result } = await this.stories.append(userID, id, piece, branchId, known);
    if (credit) await this.spread.creditTurn(credit);
    return result;
  }

  private async publicSnapshot(storyId: Types.ObjectId) {
    const snapshot = await this.archives.publicOf(storyId.toHexString());
    if (!snapshot) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return snapshot;
  }
}
