import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode, STORY_TEXT_MAX_LENGTH } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import type { RoyaltyRecipient } from '../power/power.service';
import { royaltyRecipientOf } from '../stories/story-royalty';
import { textSnippets } from '../stories/story-text';
import { Story } from '../stories/story.schema';
import type { PromptStory } from './context/prompt-types';

/** What play reads of a story. */
export type PlayStory = PromptStory & {
  _id: Types.ObjectId;
  userID: string;
  name: string;
  model_name: string;
  model_type: string;
  // Ids (hex) of the stories this one was cloned from, nearest first.
  lineage: string[];
  updatedAt?: Date;
};

const PLAY_FIELDS = {
  userID: 1, name: 1, model_name: 1, model_type: 1, lineage: 1, updatedAt: 1, prologue_and_characters: 1, hidden_settings: 1,
  goal: 1, author_remark: 1, previous_summary: 1, main_text: 1, play_mode: 1, settings_system_prompt_switch: 1,
  settings_system_prompt_text: 1, settings_user_prompt_switch: 1, settings_user_prompt_text: 1,
} as const;

/** Play's reads and writes of the stories collection (single-document updates only). */
@Injectable()
export class PlayStories {
  constructor(@InjectModel(Story.name) private readonly stories: Model<Story>) {}

  /** The caller's own story; anyone else's is not found (public stories are cloned before play). */
  async own(userID: string, id: string): Promise<PlayStory> {
    // The native driver (what mongoose's lean() answers, without its per-query work): this read is on
    // the way to every generation's first token.
    const story = await this.stories.collection.findOne({ _id: toObjectId(id), userID }, { projection: PLAY_FIELDS });
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return withDefaults(story as unknown as PlayStory);
  }

  /**
   * Appends to the text. The story is re-read and written only if its text did not change meanwhile
   * (matched on its length and first and last lines, which every text write keeps in step),
   * retried a few times: no edit in between is lost.
   */
  async append(userID: string, id: string, piece: string): Promise<{ text: string; appended: string }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const story = await this.stories
        .findOne({ _id: toObjectId(id), userID }, { main_text: 1, charCount: 1, firstLine: 1, lastLine: 1 })
        .lean()
        .exec();
      if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
      const current = story.main_text ?? '';
      const appended = joinPiece(current, piece);
      const text = current + appended;
      if (text.length > STORY_TEXT_MAX_LENGTH) {
        throw new AppException(ErrorCode.STORY_TEXT_TOO_LONG, undefined, { limit: STORY_TEXT_MAX_LENGTH.toLocaleString('en') });
      }
      const updated = await this.stories
        .updateOne(
          { _id: story._id, userID, charCount: story.charCount ?? 0, firstLine: story.firstLine ?? '', lastLine: story.lastLine ?? '' },
          { $set: { main_text: text, ...textSnippets(text), time: new Date() } },
        )
        .exec();
      if (updated.modifiedCount === 1) return { text, appended };
    }
    throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
  }

  async setSummary(id: string, summary: string): Promise<void> {
    await this.stories.updateOne({ _id: toObjectId(id) }, { $set: { previous_summary: summary } }).exec();
  }

  /** Whom a turn on this story pays a royalty (see royaltyRecipientOf). */
  royaltyRecipient(story: Pick<PlayStory, 'userID' | 'lineage'>): Promise<RoyaltyRecipient | null> {
    return royaltyRecipientOf(this.stories, story);
  }
}

// A turn starts on a new line of its own.
function joinPiece(current: string, piece: string): string {
  if (!piece) return '';
  if (!current || current.endsWith('\n')) return piece;
  return `\n${piece}`;
}

function withDefaults(s: PlayStory): PlayStory {
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

export function toObjectId(id: string): Types.ObjectId {
  if (typeof id !== 'string' || !/^[0-9a-f]{24}$/i.test(id)) throw new AppException(ErrorCode.STORY_NOT_FOUND);
  return new Types.ObjectId(id);
}
