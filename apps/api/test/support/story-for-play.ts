import { Types } from 'mongoose';
import type { StoryForPlay } from '../../src/stories/story.repository';

/** A story as a send reads it (StoryRepository.forPlay): a fresh id, short texts, fly_free; `fields` replace any of it. */
export function storyForPlay(fields: Partial<StoryForPlay> = {}): StoryForPlay {
  return {
    _id: new Types.ObjectId(), userID: 'u1', name: '', main_text: 'Start.', prologue_and_characters: 'Start.', hidden_settings: '', goal: '',
    author_remark: '', previous_summary: '', summarized_chars: 0, play_mode: 'fly_free', settings_system_prompt_switch: 'default',
    settings_system_prompt_text: '', settings_user_prompt_switch: 'default', settings_user_prompt_text: '', model_name: '', model_type: '',
    lineage: [], branchId: null, ...fields,
  } as StoryForPlay;
}
