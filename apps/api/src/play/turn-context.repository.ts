import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { PromptContextData, PromptPart } from '@taleloom/contracts';
import { Model, Types, type mongo } from 'mongoose';
import { bulkWritesTo } from '../common/batched-writes';
import { replaceUserMacro } from './context/prompt-builder';
import { TurnContext } from './turn-context.schema';

// Characters kept at each end of the story-text window: enough to tell whether the text was edited since.
const EDGE = 64;
// Prompts written in one bulk at most (each is a few kilobytes).
const SAVES_PER_BULK = 16;

/** A stored text part: its heading only, and the window's range and ends. */
type StoredPart = PromptPart & { head?: string; tail?: string };

/**
 * The `turn_contexts` collection: the latest send's prompt of each line of a story, one document per
 * branch, keyed as a branch's tasks are (playedBranchKey: the story's id for its original line).
 */
@Injectable()
export class TurnContextRepository {
  constructor(@InjectModel(TurnContext.name) private readonly contexts: Model<TurnContext>) {}

  /** Keeps a send's prompt (replacing the branch's previous one). `storyText` is the text the window was cut from. */
  async save(branchKey: Types.ObjectId, userID: string, context: PromptContextData, storyText: string): Promise<void> {
    const messages = context.messages.map((m) => ({
      ...m,
      parts: m.parts.map((p): StoredPart => {
        if (p.kind !== 'text' || p.from === undefined || p.to === undefined) return p;
        const window = storyText.slice(p.from, p.to);
        // The part's text ends with the window as sent: `{{user}}` read as `p.user`.
        const sent = p.user === undefined ? window : replaceUserMacro(window, p.user);
        return { ...p, text: p.text.slice(0, p.text.length - sent.length), head: window.slice(0, EDGE), tail: window.slice(-EDGE) };
      }),
    }));
    // The native driver, with the timestamps mongoose would add (the stored document is the same).
    const now = new Date();
    await this.saves.add({
      updateOne: {
        filter: { _id: branchKey },
        update: { $set: { userID, turnId: context.turnId, context: { ...context, messages }, updatedAt: now }, $setOnInsert: { createdAt: now } },
        upsert: true,
      },
    });
  }

  // The prompts of the sends in one turn of the event loop, a few to a bulk write: one bulk of hundreds
  // held up the reads and claims of the sends behind it.
  private readonly saves = bulkWritesTo<mongo.Document>(this.contexts.collection, SAVES_PER_BULK);

  /** The branch's latest prompt (the caller checked the story is the user's), the window filled from `storyText` when unchanged. */
  async latest(branchKey: Types.ObjectId, userID: string, storyText: string): Promise<PromptContextData | null> {
    const doc = await this.contexts.findOne({ _id: branchKey, userID }).lean().exec();
    if (!doc) return null;
    const context = doc.context as unknown as PromptContextData;
    return {
      ...context,
      messages: context.messages.map((m) => ({
        ...m,
        parts: m.parts.map((p: StoredPart): PromptPart => {
          if (p.kind !== 'text') return p;
          const { head, tail, ...part } = p;
          const from = part.from ?? 0;
          const to = part.to ?? 0;
          const window = to <= storyText.length ? storyText.slice(from, to) : '';
          const same = to <= storyText.length && window.startsWith(head ?? '') && window.endsWith(tail ?? '');
          const sent = part.user === undefined ? window : replaceUserMacro(window, part.user);
          return same ? { ...part, text: part.text + sent, available: true } : { ...part, available: false };
        }),
      })),
    };
  }

  /** Forgets a deleted branch's prompt. */
  async remove(branchKey: Types.ObjectId, userID: string): Promise<void> {
    await this.contexts.deleteOne({ _id: branchKey, userID }).exec();
  }
}
