import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { charCount, CUSTOM_MODEL_TYPE, ErrorCode, STORY_TEXT_MAX_LENGTH } from '@taleloom/contracts';
import { randomUUID } from 'node:crypto';
import { FilterQuery, Model, Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import { BatchedReads } from '../common/batched-reads';
import { INSTANCE_TAG } from '../common/instance';
import { toObjectId } from '../common/object-id';
import type { RoyaltyRecipient } from '../power/power.service';
import { playedBranchId, whilePlaying } from './played-branch';
import type { BranchState } from './story-branch.schema';
import { containsPattern, textSnippets } from './story-text';
import type { Appended } from './story-credits.repository';
import { LIST_PROJECTION, Story, StoryDocument, StoryState, type TurnCredit } from './story.schema';
import { BRANCHING_FIELDS, knownTextOf, PLAY_FIELDS, TASK_FIELDS, textStateOf, type CloneSource, type KnownText, type StoryAccess, type StoryForBranching, type StoryForPlay, type StoryForTasks, type StoryListFields, type StoryRecord, type TextState } from './story-projections';

export { knownTextOf, type CloneSource, type KnownText, type StoryAccess, type StoryForBranching, type StoryForPlay, type StoryForTasks, type StoryListFields, type StoryRecord, type TextState };

const SORT = { pinToTop: -1, time: -1, _id: -1 } as const;

/**
 * The `stories` collection: the only class that reads or writes it (the pictures' references on a
 * story are StoryPictureRefs', the square's counters StoryCredits'). Every write is a single-document
 * (conditional) update.
 */
@Injectable()
export class StoryRepository {
  // Who is told when this process writes a story's text or settings (see onWrite).
  private readonly writeWatchers: ((id: string) => void)[] = [];

  // The reads of every send in one turn of the event loop: one command (the native driver: what
  // mongoose's lean() answers, without its per-query work). On the way to every generation's first token.
  private readonly playReads: BatchedReads<StoryForPlay>;

  constructor(@InjectModel(Story.name) private readonly stories: Model<Story>) {
    const reads = (projection: object) => (ids: Types.ObjectId[]) =>
      this.stories.collection.find({ _id: { $in: ids } }, { projection }).toArray() as unknown as Promise<StoryForPlay[]>;
    this.playReads = new BatchedReads(reads(PLAY_FIELDS));
  }

  /**
   * `watch` is called with a story's id each time this process writes what a send reads of it (its
   * text, settings, branch, summary): what a process keeps of stories (play's SendGuesses) drops it.
   */
  onWrite(watch: (id: string) => void): void {
    this.writeWatchers.push(watch);
  }

  private wrote(id: string | Types.ObjectId): void {
    const hex = typeof id === 'string' ? id : id.toHexString();
    for (const watch of this.writeWatchers) watch(hex);
  }

  create(story: Partial<Story>): Promise<StoryDocument> {
    return this.stories.create(story);
  }

  /** The whole story, whoever owns it; null when there is none. */
  byId(id: string | Types.ObjectId): Promise<StoryRecord | null> {
    return this.stories.findById(typeof id === 'string' ? toObjectId(id) : id).lean<StoryRecord>().exec();
  }

  /** The caller's own story, whole; STORY_NOT_FOUND for anyone else's. */
  async own(userID: string, id: string, notFound = ErrorCode.STORY_NOT_FOUND): Promise<StoryRecord> {
    const story = await this.stories.findOne({ _id: toObjectId(id), userID }).lean<StoryRecord>().exec();
    if (!story) throw new AppException(notFound);
    return story;
  }

  /** Whether the caller owns the story. */
  async isOwn(userID: string, id: string): Promise<boolean> {
    return Boolean(await this.stories.exists({ _id: toObjectId(id), userID }).exec());
  }

  access(id: string): Promise<StoryAccess | null> {
    return this.stories.findById(toObjectId(id), { userID: 1, permission: 1 }).lean<StoryAccess>().exec();
  }

  listItem(id: string): Promise<StoryListFields | null> {
    return this.stories.findById(toObjectId(id), LIST_PROJECTION).lean<StoryListFields>().exec();
  }

  /** My stories (`owner`) or the square; pinned first, then newest; one more than asked tells whether more follow. */
  page(query: { owner?: string; search?: string }, skip: number, limit: number): Promise<StoryListFields[]> {
    const filter: FilterQuery<Story> = query.owner ? { userID: query.owner } : { permission: '1' };
    if (query.search) filter.name = { $regex: containsPattern(query.search) };
    return this.stories.find(filter, LIST_PROJECTION).sort(SORT).skip(skip).limit(limit).lean<StoryListFields[]>().exec();
  }

  /** A public story of `userID`, without its text (what a clone of it reads besides the public version). */
  publicOf(userID: string, id: string): Promise<StoryRecord | null> {
    return this.stories.findOne({ _id: toObjectId(id), userID, permission: '1' }).select({ main_text: 0 }).lean<StoryRecord>().exec();
  }

  async activityOf(userID: string, id: string): Promise<string | null> {
    const story = await this.stories.findOne({ _id: toObjectId(id), userID }, { activity: 1 }).lean().exec();
    return story?.activity ?? null;
  }

  /**
   * Changes the caller's own story; answers it whole, or null when it is not theirs. With `branchId`,
   * only while the story plays that branch (BRANCH_CHANGED otherwise).
   */
  async update(userID: string, id: string, set: Record<string, unknown>, branchId?: string, textIs?: TextState): Promise<StoryRecord | null> {
    const _id = toObjectId(id);
    const filter = { _id, userID, ...(branchId ? whilePlaying(_id, branchId) : {}), ...textIs };
    this.wrote(_id);
    const story = await this.stories.findOneAndUpdate(filter, { $set: set, $inc: { stateRev: 1 } }, { new: true }).lean<StoryRecord>().exec();
    if (story || !(branchId || textIs)) return story;
    const now = await this.stories.findOne({ _id, userID }, { branchId: 1 }).lean<{ _id: Types.ObjectId; branchId?: string | null }>().exec();
    if (!now) return null;
    if (!textIs || (branchId && playedBranchId(now) !== branchId)) throw new AppException(ErrorCode.BRANCH_CHANGED);
    throw new AppException(ErrorCode.STORY_TEXT_CHANGED);
  }

  /**
   * The caller's own story's text as an edit of it reads it: the text, what a later write is matched on,
   * and the branch it plays.
   */
  async textOf(userID: string, id: string): Promise<TextState & { main_text: string; playedBranch: string }> {
    const story = await this.stories
      .findOne({ _id: toObjectId(id), userID }, { main_text: 1, charCount: 1, firstLine: 1, lastLine: 1, branchId: 1 })
      .lean<Partial<TextState> & { _id: Types.ObjectId; main_text?: string; branchId?: string | null }>()
      .exec();
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return { main_text: story.main_text ?? '', ...textStateOf(story), playedBranch: playedBranchId(story) };
  }

  /** Changes the caller's own story; answers its list fields, or null when it is not theirs. */
  updateListed(userID: string, id: string | Types.ObjectId, set: Record<string, unknown>): Promise<StoryListFields | null> {
    const _id = typeof id === 'string' ? toObjectId(id) : id;
    this.wrote(_id);
    return this.stories.findOneAndUpdate({ _id, userID }, { $set: set }, { new: true, projection: LIST_PROJECTION }).lean<StoryListFields>().exec();
  }

  /** Puts a saved state back into the caller's own story (a restore point); false when it is not theirs. */
  async restore(userID: string, id: Types.ObjectId, set: Partial<StoryState> & Record<string, unknown>): Promise<boolean> {
    this.wrote(id);
    return Boolean(await this.stories.findOneAndUpdate({ _id: id, userID }, { $set: set, $inc: { stateRev: 1 } }, { new: true, projection: { _id: 1 } }).lean().exec());
  }

  // --- branches ---

  /** Which branch the caller's own story plays, and its length (what the branch list reads of it). */
  async playedBranch(userID: string, id: string): Promise<Pick<StoryForBranching, '_id' | 'branchId' | 'charCount' | 'createdAt'>> {
    const story = await this.stories
      .findOne({ _id: toObjectId(id), userID }, { branchId: 1, charCount: 1, createdAt: 1 })
      .lean<Pick<StoryForBranching, '_id' | 'branchId' | 'charCount' | 'createdAt'>>()
      .exec();
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return story;
  }

  /** The caller's own story as a change of branch reads it. */
  async forBranching(userID: string, id: string): Promise<StoryForBranching> {
    const story = await this.stories.findOne({ _id: toObjectId(id), userID }, BRANCHING_FIELDS).lean<StoryForBranching>().exec();
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return story;
  }

  /**
   * Puts branch `branchId`'s state into the story, only if the story still plays the branch it
   * played when read and nothing of that branch's content was written since (`stateRev`). One
   * conditional update: the story holds one branch or the other, never a mix. False when it changed.
   */
  async playBranch(read: Pick<StoryForBranching, '_id' | 'userID' | 'branchId' | 'stateRev'>, branchId: string, state: BranchState): Promise<boolean> {
    this.wrote(read._id);
    const result = await this.stories
      .updateOne(
        { _id: read._id, userID: read.userID, branchId: read.branchId ?? null, stateRev: read.stateRev ?? null },
        {
          $set: {
            main_text: state.main_text, previous_summary: state.previous_summary, summarized_chars: state.summarized_chars,
            pictures: state.pictures, ...textSnippets(state.main_text), branchId, stateRev: (read.stateRev ?? 0) + 1, time: new Date(),
          },
        },
      )
      .exec();
    return result.modifiedCount === 1;
  }

  // --- play ---

  /**
   * The caller's own story as a turn reads it; anyone else's is not found (public stories are cloned
   * before play).
   */
  async forPlay(userID: string, id: string): Promise<StoryForPlay> {
    const _id = toObjectId(id);
    const story = await this.playReads.get(_id);
    if (!story || story.userID !== userID) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return withPlayDefaults(story as unknown as StoryForPlay);
  }

  /**
   * Appends to the text. The story is re-read and written only if its text did not change meanwhile
   * (matched on its length and first and last lines, which every text write keeps in step),
   * retried a few times: no edit in between is lost. With `known`, the first read leaves the text out
   * when the story is still at `known`'s revision. Answers the text written and its revision.
   */
  async append(userID: string, id: string, piece: string, branchId?: string, known?: KnownText | null): Promise<Appended> {
    const _id = toObjectId(id);
    const onBranch = branchId ? whilePlaying(_id, branchId) : {};
    this.wrote(_id);
    const textFields = { charCount: 1, firstLine: 1, lastLine: 1, branchId: 1, stateRev: 1, lineage: 1 };
    type Read = Partial<TextState> & { _id: Types.ObjectId; main_text?: string; branchId?: string | null; stateRev?: number; lineage?: string[] };
    const readWhole = () => this.stories.findOne({ _id, userID }, { main_text: 1, ...textFields }).lean<Read>().exec();
    for (let attempt = 0; attempt < 5; attempt++) {
      let story: Read | null;
      if (attempt === 0 && known) {
        const head = await this.stories.findOne({ _id, userID }, textFields).lean<Read>().exec();
        story = head && head.stateRev === known.stateRev ? { ...head, main_text: known.main_text } : await readWhole();
      } else story = await readWhole();
      // Written only over the revision read (and its text's snippets, for a story without one).
      const atRev = typeof story?.stateRev === 'number' ? { stateRev: story.stateRev } : {};
      if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
      // The turn was played on another branch than the one the story plays now: it does not go here.
      if (branchId && (story.branchId || id) !== branchId) throw new AppException(ErrorCode.BRANCH_CHANGED);
      const current = story.main_text ?? '';
      const appended = joinPiece(current, piece);
      const text = current + appended;
      if (text.length > STORY_TEXT_MAX_LENGTH) {
        throw new AppException(ErrorCode.STORY_TEXT_TOO_LONG, undefined, { limit: STORY_TEXT_MAX_LENGTH.toLocaleString('en') });
      }
      // The story's own counters move with its text (one write); what its sources are owed is recorded
      // with them, and counted on the sources after (StorySpreadService.creditTurn).
      const chars = charCount(appended);
      const due: TurnCredit | null = story.lineage?.length ? { id: `${id}:${randomUUID()}`, chars, owner: INSTANCE_TAG, at: Date.now() } : null;
      const updated = await this.stories
        .findOneAndUpdate(
          { _id: story._id, userID, ...textStateOf(story), ...atRev, ...onBranch },
          {
            $set: { main_text: text, ...textSnippets(text), time: new Date() },
            $inc: { stateRev: 1, rounds: 1, addedChars: chars },
            ...(due ? { $push: { creditsDue: due } } : {}),
          },
          { new: true, projection: { stateRev: 1 } },
        )
        .lean<{ stateRev: number }>()
        .exec();
      if (updated) return { text, appended, stateRev: updated.stateRev, credit: due ? { storyId: story._id, userID, lineage: story.lineage!, due } : null };
    }
    throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
  }

  /**
   * A folded summary, covering main_text[0, chars), while the story still plays the branch it was
   * folded from (answers false otherwise, storing nothing).
   */
  async setSummary(id: Types.ObjectId, branchId: string, summary: string, chars: number): Promise<boolean> {
    this.wrote(id);
    const result = await this.stories
      .updateOne({ _id: id, ...whilePlaying(id, branchId) }, { $set: { previous_summary: summary, summarized_chars: chars }, $inc: { stateRev: 1 } })
      .exec();
    return result.modifiedCount === 1;
  }

  /**
   * Whom power spent on a story pays a royalty: the author of the nearest story it was cloned from
   * that someone else owns (a clone of a public story). Null for originals and own clones.
   */
  async royaltyRecipient(story: Pick<Story, 'userID' | 'lineage'>): Promise<RoyaltyRecipient | null> {
    if (!story.lineage?.length) return null;
    const sources = await this.stories
      .find({ _id: { $in: story.lineage }, userID: { $ne: story.userID } }, { userID: 1, name: 1 })
      .lean()
      .exec();
    const byId = new Map(sources.map((s) => [s._id.toHexString(), s]));
    for (const id of story.lineage) {
      const source = byId.get(String(id));
      if (source) return { authorUserID: source.userID, storyID: source._id.toHexString(), storyName: source.name ?? '' };
    }
    return null;
  }

  // --- tasks ---

  async forTasks(userID: string, id: string): Promise<StoryForTasks> {
    const story = await this.stories.findOne({ _id: toObjectId(id), userID }, TASK_FIELDS).lean<StoryForTasks>().exec();
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return story;
  }

  // --- custom models ---

  /** The owner's stories that chose custom model `from` choose `to` instead (a rename). */
  async renameCustomModel(userID: string, from: string, to: string): Promise<void> {
    await this.stories.updateMany({ userID, model_type: CUSTOM_MODEL_TYPE, model_name: from }, { $set: { model_name: to } }).exec();
  }

  /** The owner's stories that chose custom model `name` go back to the platform default (it was deleted). */
  async forgetCustomModel(userID: string, name: string): Promise<void> {
    await this.stories.updateMany({ userID, model_type: CUSTOM_MODEL_TYPE, model_name: name }, { $set: { model_name: '', model_type: '' } }).exec();
  }
}

/** What appending `piece` to `current` adds: a turn starts on a new line of its own. */
export function joinPiece(current: string, piece: string): string {
  if (!piece) return '';
  if (!current || current.endsWith('\n')) return piece;
  return `\n${piece}`;
}

function withPlayDefaults(s: StoryForPlay): StoryForPlay {
  return {
    ...s,
    name: s.name ?? '',
    main_text: s.main_text ?? '',
    prologue_and_characters: s.prologue_and_characters ?? '',
    hidden_settings: s.hidden_settings ?? '',
    goal: s.goal ?? '',
    author_remark: s.author_remark ?? '',
    previous_summary: s.previous_summary ?? '',
    play_mode: s.play_mode ?? 'fly_free',
    settings_system_prompt_switch: s.settings_system_prompt_switch ?? 'default',
    settings_system_prompt_text: s.settings_system_prompt_text ?? '',
    settings_user_prompt_switch: s.settings_user_prompt_switch ?? 'default',
    settings_user_prompt_text: s.settings_user_prompt_text ?? '',
    model_name: s.model_name ?? '',
    model_type: s.model_type ?? '',
    lineage: s.lineage ?? [],
  };
}
