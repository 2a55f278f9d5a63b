import { Inject, Injectable } from '@nestjs/common';
import cluster from 'node:cluster';
import { SEND_THROTTLE_MS, STORY_TEXT_MAX_LENGTH, type SendTurnDto } from '@taleloom/contracts';
import { LRUCache } from 'lru-cache';
import { isDeepStrictEqual } from 'node:util';
import { ownObjectId } from '../common/object-id';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ModelChooser, type ChosenModel } from '../generation/model-chooser';
import type { CompiledLore } from '../lore/lore-activation';
import { LoreService } from '../lore/lore.service';
import { PowerService } from '../power/power.service';
import { playedBranchKey } from '../stories/played-branch';
import { StoryPictureRepository } from '../stories/story-picture.repository';
import { joinPiece, knownTextOf, StoryRepository, type KnownText, type StoryForPlay } from '../stories/story.repository';
import { joinParts } from './turn-text';

/** An open target of the story's current task group, as the prompt names it. */
export interface OpenTarget {
  title: string;
  type: 'reality' | 'emotion';
}

/**
 * What a send will most likely read, guessed from what this process saw of the story (its fields, its
 * turn, its lore): the send's provider request starts on it at once, before the reads and the claim
 * are answered (TurnRunner.startEarly); once they are, the guess stands only if it is exactly what
 * they read.
 */
export interface SendGuess {
  /** The story as the send will see it, the pending turn it accepts included. */
  story: StoryForPlay;
  chosen: ChosenModel;
  summarizedChars: number;
  lore: CompiledLore | null;
  /** The open targets of the task play modes (undefined: fly_free). */
  openTargets?: OpenTarget[];
}

/** A send's request started on a guess (TurnRunner.startEarly), until the checks of its send (a TurnSend) are answered. */
export interface EarlyStart<Send> {
  /** The checks of `send` passed: the request becomes its turn's when the guess was right (true); else it is aborted (false). */
  confirm(send: Send): Promise<boolean>;
  /** The send was refused: the request is aborted. */
  drop(): Promise<void>;
  /** Resolves when the provider has sent its first chunk (held until `confirm`), or the request ended. */
  answering: Promise<void>;
}

// What this process last saw of a story's turn: idle, or done with the piece accepting it appends.
interface KnownTurn {
  generationId: string | null;
  state: 'idle' | 'generating' | 'done';
  piece: string;
  lastSendAt: number;
}

interface Known {
  userID: string;
  story: StoryForPlay;
  turn: KnownTurn;
  targets?: { key: string; list: OpenTarget[] };
}

// What the cache may hold in all, in characters of story fields (about twice that in bytes at most).
const KNOWN_MAX_CHARS = 8_000_000;

/**
 * The stories this process played last, as their sends left them, so that the next send of each can
 * start its provider request before anything is read (SendGuess). Only ever a guess: every send still
 * reads the story, claims the turn and reads the lore, and a guess that differs from what they read
 * is dropped (its request aborted before anything was relayed, written or charged) and the send starts
 * again from what was read. So another process writing the story (API_WORKERS, an edit) costs a send
 * some time and one aborted provider request, never its correctness.
 */
@Injectable()
export class SendGuesses {
  private readonly known = new LRUCache<string, Known>({
    maxSize: KNOWN_MAX_CHARS,
    sizeCalculation: (k) => 256 + k.story.main_text.length + k.story.prologue_and_characters.length + k.story.previous_summary.length + k.turn.piece.length,
  });
  /** Sends started on a guess, guesses that stood, and guesses that were dropped (what the tests read). */
  readonly counts = { guessed: 0, stood: 0, dropped: 0 };

  // Whether sends start early at all (SEND_EARLY; auto: not in the processes of API_WORKERS).
  private readonly enabled: boolean;

  constructor(
    stories: StoryRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly chooser: ModelChooser,
    private readonly lore: LoreService,
    private readonly power: PowerService,
    pictures: StoryPictureRepository,
  ) {
    const mode = config.env.SEND_EARLY;
    this.enabled = mode === 'on' || (mode === 'auto' && !cluster.isWorker);
    // A story this process writes (an edit, a change of branch, a restore) is read again by its next send.
    stories.onWrite((id) => this.forget(id));
    // A picture added to a story raises its revision, not its text: the text kept here is still the text.
    pictures.onTextKept((id, from, to) => {
      const known = this.known.peek(id);
      if (known?.story.stateRev === from) known.story = { ...known.story, stateRev: to };
    });
  }

  /** A story made here: its first send starts at once. */
  created(id: string, userID: string, story: StoryForPlay): void {
    this.known.set(id, { userID, story: kept(story), turn: { generationId: null, state: 'idle', piece: '', lastSendAt: 0 } });
  }

  /** A send was claimed on `story` (as read, the pending turn it accepted appended). */
  sent(id: string, userID: string, story: StoryForPlay, generationId: string, at: number): void {
    this.remember(id, userID, story, { generationId, state: 'generating', piece: '', lastSendAt: at });
  }

  /**
   * The pending turn was accepted on its own (Save: `story` as it is now, its text and revision as the
   * accept wrote them) and cleared; `lastSendAt`: its last send, which the throttle counts from.
   */
  saved(id: string, userID: string, story: StoryForPlay, lastSendAt: number): void {
    this.remember(id, userID, story, { generationId: null, state: 'idle', piece: '', lastSendAt });
  }

  // The story and its turn as a send or a save left them (the targets read for it kept).
  private remember(id: string, userID: string, story: StoryForPlay, turn: KnownTurn): void {
    const targets = this.known.get(id)?.targets;
    this.known.set(id, { userID, story: kept(story), turn, ...(targets ? { targets } : {}) });
  }

  /** Generation `generationId` stored its whole text: the next send accepts `piece` (its user and AI parts). */
  done(id: string, generationId: string, piece: string): void {
    const known = this.known.peek(id);
    // Set again, not changed in place: the cache's size counts the piece (texts of up to maxOutput tokens).
    if (known?.turn.generationId === generationId) this.known.set(id, { ...known, turn: { ...known.turn, state: 'done', piece } });
  }

  /** The open targets a send of the story read for branch `key` (its hex id). */
  targets(id: string, key: string, list: OpenTarget[]): void {
    const known = this.known.peek(id);
    if (known) known.targets = { key, list };
  }

  /**
   * The story's text as this process last saw it and its revision then, for `userID`'s send (null: not
   * known here, or without a revision): its send reads the story without it while it is at that revision.
   */
  knownText(id: string, userID: string): KnownText | null {
    const known = this.known.peek(id);
    return known && known.userID === userID ? knownTextOf(known.story) : null;
  }

  /** What this process knew of the story no longer holds (a failed or refused send, an accept or discard). */
  forget(id: string): void {
    this.known.delete(id);
  }

  /**
   * The guess for `userID`'s send on story `id` (null: none worth making): a platform model (a paid one
   * only when the balance this process last saw covers it), the pending turn known (idle, or done and
   * accepted as sent or as the request edits it), past the throttle, and the lore known. `named`: the
   * model the request names.
   */
  guess(
    userID: string,
    id: string,
    dto: Pick<SendTurnDto, 'regenerate' | 'role' | 'content' | 'model_name'> & { accept?: { turnId: string; userContent: string; newContent: string } | null },
    named: ChosenModel | null,
    now: number,
  ): SendGuess | null {
    if (!this.enabled) return null;
    const known = this.known.get(id);
    if (!known || known.userID !== userID) return null;
    const { turn } = known;
    if (turn.state === 'generating' || now - turn.lastSendAt < SEND_THROTTLE_MS) return null;
    const chosen = named ?? this.chooser.storyPlatform(known.story);
    if (!chosen || chosen.custom) return null;
    // A paid model: only when the balance this process last saw covers it (the hold decides, as always).
    if (chosen.model.points > 0 && !((this.power.knownBalance(userID) ?? -1) >= chosen.model.points)) return null;
    if (typeof known.story.summarized_chars !== 'number') return null;
    const lore = this.lore.known(id);
    if (lore === undefined) return null;
    let story = known.story;
    if (!dto.regenerate && turn.state === 'done') {
      const edited = dto.accept;
      if (edited && edited.turnId !== turn.generationId) return null;
      const piece = edited ? joinParts(edited.userContent, edited.newContent) : turn.piece;
      const appended = joinPiece(story.main_text, piece);
      if (story.main_text.length + appended.length > STORY_TEXT_MAX_LENGTH) return null;
      if (appended) story = { ...story, main_text: story.main_text + appended };
    }
    let openTargets: OpenTarget[] | undefined;
    if (story.play_mode !== 'fly_free') {
      if (known.targets?.key !== playedBranchKey(story).toHexString()) return null;
      openTargets = known.targets.list;
    }
    return { story, chosen, summarizedChars: story.summarized_chars, lore, ...(openTargets ? { openTargets } : {}) };
  }
}

/**
 * Whether the story a send read is the one its guess was made on (its update time and revision aside,
 * which no prompt shows: the revision moves with the pending turn's accept, which the guess appended too).
 */
export function sameStory(read: StoryForPlay, guessed: StoryForPlay): boolean {
  if (!read._id.equals(guessed._id)) return false;
  const { _id: _a, updatedAt: _b, stateRev: _e, ...a } = read;
  const { _id: _c, updatedAt: _d, stateRev: _f, ...b } = guessed;
  return isDeepStrictEqual(a, b);
}

// A story as the cache keeps it: its id in a buffer of its own (see ownObjectId); the entry lives long.
function kept(story: StoryForPlay): StoryForPlay {
  return { ...story, _id: ownObjectId(story._id) };
}
