import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode, type TaskTarget } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { AppException, RetriesExhausted } from '../common/app-exception';
import { StoryTasks } from './story-tasks.schema';
import { normaliseForQuotes, quoteIsInText } from './task-output';
import { openTargets, pickCurrent, withScores } from './task-rules';
import { isDuplicateKey } from '../common/database-errors';

type Changes = Partial<Pick<StoryTasks, 'groups' | 'nextTasksId' | 'current_tasks_id' | 'suggestions'>>;

/**
 * The `story_tasks` collection: one document per branch of a story (the original line's `_id` is the
 * story's, so it is the document every story had before branches), single-document conditional
 * updates only. The story's own document also holds the claim of its one running request.
 */
@Injectable()
export class TaskRepository {
  constructor(@InjectModel(StoryTasks.name) private readonly docs: Model<StoryTasks>) {}

  read(storyId: Types.ObjectId): Promise<StoryTasks | null> {
    return this.docs.findById(storyId).lean<StoryTasks>().exec();
  }

  /**
   * The story's document, created on first use. An insert of a taken _id fails on every store; the
   * offline stand-in's file storage can drop one of two concurrent inserts, so it is read back.
   */
  async ensure(storyId: Types.ObjectId, userID: string): Promise<StoryTasks> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.read(storyId);
      if (doc) return doc;
      try {
        await this.docs.create({ _id: storyId, userID });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    throw new RetriesExhausted(`creating the task document of story ${storyId.toHexString()}`);
  }

  /**
   * Applies `change` to the current document and writes the result only if nobody wrote in between
   * (matched on `rev`), retrying on a conflict. Scores and the current group are recomputed on every write.
   */
  async change(storyId: Types.ObjectId, change: (doc: StoryTasks) => Changes): Promise<StoryTasks> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const doc = await this.read(storyId);
      if (!doc) throw new AppException(ErrorCode.TASKS_NOT_FOUND);
      const set: Changes = change(doc);
      const groups = withScores(set.groups ?? doc.groups ?? []);
      set.groups = groups;
      set.current_tasks_id = pickCurrent(groups, set.current_tasks_id !== undefined ? set.current_tasks_id : (doc.current_tasks_id ?? null));
      const written = await this.docs
        .findOneAndUpdate({ _id: storyId, rev: doc.rev ?? 0 }, { $set: set, $inc: { rev: 1 } }, { new: true })
        .lean<StoryTasks>()
        .exec();
      if (written) return written;
    }
    throw new RetriesExhausted(`changing the tasks of story ${storyId.toHexString()}`);
  }

  /** Claims the story's one running task request; false when another one is running and alive. */
  async claim(storyId: Types.ObjectId, jobId: string, kind: 'create' | 'score', staleMs: number): Promise<boolean> {
    const now = Date.now();
    const claimed = await this.docs
      .updateOne(
        { _id: storyId, $or: [{ jobId: null }, { jobHeartbeatAt: { $lt: now - staleMs } }] },
        { $set: { jobId, jobKind: kind, jobHeartbeatAt: now } },
      )
      .exec();
    return claimed.modifiedCount === 1;
  }

  async heartbeat(storyId: Types.ObjectId, jobId: string): Promise<void> {
    await this.docs.updateOne({ _id: storyId, jobId }, { $set: { jobHeartbeatAt: Date.now() } }).exec();
  }

  async release(storyId: Types.ObjectId, jobId: string): Promise<void> {
    await this.docs.updateOne({ _id: storyId, jobId }, { $set: { jobId: null, jobKind: null, jobHeartbeatAt: 0 } }).exec();
  }

  /** A score asked for a plot already scored: counted, and the change shows in the status poll. */
  async countForbidden(storyId: Types.ObjectId): Promise<void> {
    await this.docs.updateOne({ _id: storyId }, { $inc: { total_forbidden_turns: 1, rev: 1 } }).exec();
  }

  /**
   * The tasks a new branch starts with: those of the branch it forks from, except progress the text it
   * keeps (`sharedText`) does not show: a completed target whose quoted passage is not in it is open
   * again. Written once (an insert): a repeated fork copies nothing twice.
   */
  async copyForBranch(from: Types.ObjectId, to: Types.ObjectId, userID: string, sharedText: string): Promise<void> {
    const doc = await this.read(from);
    if (!doc) return;
    const normalised = normaliseForQuotes(sharedText);
    const groups = withScores(
      (doc.groups ?? []).map((g) => ({
        ...g,
        targets: g.targets.map((t) =>
          t.completed && t.evidence && !quoteIsInText(t.evidence, sharedText, normalised)
            ? { ...t, completed: false, complete_turn: null, evidence: '', reason: '' }
            : t,
        ),
      })),
    );
    const copy = {
      userID, groups, nextTasksId: doc.nextTasksId ?? 1, current_tasks_id: pickCurrent(groups, doc.current_tasks_id ?? null),
      total_forbidden_turns: doc.total_forbidden_turns ?? 0, suggestions: null, rev: 0, jobId: null, jobKind: null, jobHeartbeatAt: 0,
    };
    await this.docs.updateOne({ _id: to }, { $setOnInsert: copy }, { upsert: true }).exec();
  }

  /** A deleted branch's tasks go (the story's own document keeps the request claim: only its tasks are emptied). */
  async dropBranch(key: Types.ObjectId, storyId: Types.ObjectId): Promise<void> {
    if (key.equals(storyId)) {
      await this.docs.updateOne({ _id: key }, { $set: { groups: [], current_tasks_id: null, suggestions: null }, $inc: { rev: 1 } }).exec();
      return;
    }
    await this.docs.deleteOne({ _id: key }).exec();
  }

  /** The open targets of the group the task play modes steer toward (none when there is none). */
  async openTargets(storyId: Types.ObjectId): Promise<TaskTarget[]> {
    const doc = await this.docs.findById(storyId, { groups: 1, current_tasks_id: 1 }).lean<StoryTasks>().exec();
    const current = doc?.groups?.find((g) => g.tasks_id === doc.current_tasks_id);
    return current ? openTargets(current).map((x) => x.target) : [];
  }
}
