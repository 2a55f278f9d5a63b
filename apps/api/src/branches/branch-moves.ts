import { Injectable } from '@nestjs/common';
import { BRANCH_EXCERPT_CHARS, BRANCHES_PER_STORY_MAX, charCount, ErrorCode, placePictures } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException, RetriesExhausted } from '../common/app-exception';
import { TurnParking, type HeldTurn } from '../play/turn-parking.service';
import { playedBranchId, playedBranchKey } from '../stories/played-branch';
import { StoryBranchRepository } from '../stories/story-branch.repository';
import type { BranchState } from '../stories/story-branch.schema';
import { StoryRepository, type StoryForBranching } from '../stories/story.repository';
import { TaskRepository } from '../tasks/task.repository';
import { epochMs } from './branch-view';

// A change of branch that keeps losing to writes of the story's text gives up after this many reads.
const ATTEMPTS = 5;

/** A point of a change of branch, named for the crash tests (test/support/kill-switch.js). */
export type BranchStep = 'held' | 'tasks-copied' | 'created' | 'parked' | 'saved' | 'flipped' | 'released' | 'deleted';

/**
 * The steps of forking, switching and deleting branches, each one single-document write, in an order
 * that leaves the story whole if the process dies between any two of them:
 *
 *   hold the turn (no send, accept or other change meanwhile; let go by itself after 30 s)
 *   [fork: copy the tasks to the new branch's id, then write the new branch's document]
 *   park the pending turn with the branch it belongs to          (a copy; the turn still holds it)
 *   save the played branch's state into its branch document      (a copy; the story still holds it)
 *   put the chosen branch's state into the story                 (one conditional update: the switch)
 *   let go of the turn, with the chosen branch's parked turn     (the turn follows the story)
 *
 * Before the switch, the story still plays the old branch whole; after it, the new one. A turn left
 * behind by a switch cut short is brought along by the next read of the pending turn (TurnParking.follow).
 * Each step can be repeated: a retried fork or switch ends the same way.
 */
@Injectable()
export class BranchMoves {
  constructor(
    private readonly stories: StoryRepository,
    private readonly branches: StoryBranchRepository,
    private readonly parking: TurnParking,
    private readonly tasks: TaskRepository,
  ) {}

  // Holds already let go of (by a switch, which hands the turn to the branch it switched to).
  private readonly letGo = new WeakSet<HeldTurn>();

  /** Holds the story's turn for a change of branch, runs `change`, and always lets go. */
  async holding<T>(storyId: string, userID: string, change: (held: HeldTurn) => Promise<T>): Promise<T> {
    const held = await this.parking.hold(new Types.ObjectId(storyId), userID);
    this.fault('held');
    try {
      return await change(held);
    } finally {
      if (!this.letGo.has(held)) await this.parking.letGo(held).catch(() => undefined);
    }
  }

  /**
   * A new branch of the played one that keeps its text up to `at`, with the summary and pictures of
   * that text and the tasks as far as it shows them; then the story plays it. Answers its id.
   */
  async fork(held: HeldTurn, storyId: string, at: number, fromBranch: string | undefined, name: string): Promise<string> {
    const story = await this.stories.forBranching(held.userID, storyId);
    const from = playedBranchId(story);
    if (fromBranch && fromBranch !== from) throw new AppException(ErrorCode.BRANCH_CHANGED);
    if (at > story.main_text.length || splitsAPair(story.main_text, at)) throw new AppException(ErrorCode.BRANCH_POINT_INVALID);
    const docs = await this.branches.list(storyId, held.userID);
    const hasDoc = docs.some((d) => d._id.toHexString() === from);
    if (docs.length + (hasDoc ? 0 : 1) >= BRANCHES_PER_STORY_MAX) {
      throw new AppException(ErrorCode.BRANCH_LIMIT, undefined, { max: BRANCHES_PER_STORY_MAX });
    }
    // The played line gets its document now (the original line of a story that branches for the first time).
    if (!hasDoc) await this.branches.ensure(storyId, held.userID, from, { no: 1, createdAt: epochMs(story.createdAt) });
    const no = Math.max(1, ...docs.map((d) => d.no ?? 0)) + 1;
    const id = new Types.ObjectId();
    const state = forkedState(this.stateOf(story, held), at);
    // Tasks first: a crash before the branch exists leaves only an unused copy.
    await this.tasks.copyForBranch(playedBranchKey(story), id, held.userID, state.main_text);
    this.fault('tasks-copied');
    await this.branches.insert(storyId, held.userID, id, {
      no, name, forkedFrom: from, forkAt: at, forkExcerpt: state.main_text.slice(Math.max(0, at - BRANCH_EXCERPT_CHARS)),
      createdAt: Date.now(), state, charCount: charCount(state.main_text),
    });
    this.fault('created');
    await this.play(held, storyId, id.toHexString());
    return id.toHexString();
  }

  /** The story plays branch `to` (with its text, summary, pictures, tasks and pending turn). */
  async play(held: HeldTurn, storyId: string, to: string): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const story = await this.stories.forBranching(held.userID, storyId);
      const current = playedBranchId(story);
      if (current !== to) {
        const target = await this.branches.find(storyId, held.userID, to);
        if (!target?.state) throw new AppException(ErrorCode.BRANCH_NOT_FOUND);
        await this.parking.park(held);
        this.fault('parked');
        await this.branches.saveState(storyId, held.userID, current, this.stateOf(story, held), story.charCount ?? 0, Date.now(), {
          no: 1, createdAt: epochMs(story.createdAt),
        });
        this.fault('saved');
        // Something of the played branch was written since it was read (a picture, an edit): read again.
        if (!(await this.stories.playBranch(story, to, target.state))) continue;
        this.fault('flipped');
      }
      if (this.parking.branchOf(held) === to) {
        // The turn is that branch's already (a switch to the played branch, or back after a switch cut short).
        await this.parking.letGo(held);
      } else {
        // Parked again when the story played `to` already (a switch cut short after it changed the story).
        if (current === to) await this.parking.park(held);
        await this.parking.letGo(held, to);
      }
      this.letGo.add(held);
      this.fault('released');
      return;
    }
    throw new RetriesExhausted(`switching story ${storyId} to branch ${to}`);
  }

  /** Deletes a branch that is not played, with its parked turn and its tasks. */
  async remove(held: HeldTurn, storyId: string, branchId: string): Promise<void> {
    const story = await this.stories.playedBranch(held.userID, storyId);
    const docs = await this.branches.list(storyId, held.userID);
    const current = playedBranchId(story);
    if (branchId !== current && !docs.some((d) => d._id.toHexString() === branchId)) throw new AppException(ErrorCode.BRANCH_NOT_FOUND);
    if (docs.length <= 1) throw new AppException(ErrorCode.BRANCH_LAST);
    if (branchId === current) throw new AppException(ErrorCode.BRANCH_IN_PLAY);
    await this.branches.remove(storyId, held.userID, branchId);
    this.fault('deleted');
    const id = new Types.ObjectId(storyId);
    await this.parking.drop(id, branchId, held.userID);
    await this.tasks.dropBranch(new Types.ObjectId(branchId), id);
  }

  // The played branch's state as the story holds it (a story from before it kept the summary's
  // coverage has it on its turn).
  private stateOf(story: StoryForBranching, held: HeldTurn): BranchState {
    return {
      main_text: story.main_text ?? '',
      previous_summary: story.previous_summary ?? '',
      summarized_chars: story.summarized_chars ?? held.turn.summarizedChars ?? 0,
      pictures: story.pictures ?? [],
    };
  }

  /** A named point of a change of branch: nothing here; the crash tests stop the process at one. */
  fault(_step: BranchStep): void {}
}

/**
 * The state a branch starts with when it forks at `at`: the text before it, the summary only if it
 * covers no text beyond it, and the pictures of passages that end before it.
 */
function forkedState(state: BranchState, at: number): BranchState {
  const keepsSummary = state.summarized_chars <= at;
  return {
    main_text: state.main_text.slice(0, at),
    previous_summary: keepsSummary ? state.previous_summary : '',
    summarized_chars: keepsSummary ? state.summarized_chars : 0,
    pictures: placePictures(state.main_text, state.pictures).filter((p) => p.to <= at).map((p) => p.picture),
  };
}

// An offset between the two halves of a surrogate pair (it would cut a character in two).
function splitsAPair(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
