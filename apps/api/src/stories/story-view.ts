import type { StoryData, StoryListItem } from '@taleloom/contracts';
import type { Types } from 'mongoose';
import { playedBranchId } from './played-branch';
import { round2, toSeconds } from './story-text';
import { Story, StoryState, STORY_STATE_FIELDS } from './story.schema';

type ListFields = Pick<
  Story,
  | 'name' | 'level' | 'clonedFrom' | 'storyNo' | 'time' | 'userID' | 'permission' | 'pinToTop' | 'recovery_point'
  | 'firstLine' | 'lastLine' | 'publicFirstLine' | 'publicLastLine' | 'unique_user_count'
  | 'penetration_story_total_rounds' | 'additional_story_count'
> & { _id: Types.ObjectId };

/** A list item; in the square the snippet is the public version's. */
export function toListItem(s: ListFields, square: boolean): StoryListItem {
  const players = s.unique_user_count ?? 0;
  const rounds = s.penetration_story_total_rounds ?? 0;
  const chars = s.additional_story_count ?? 0;
  return {
    id: s._id.toHexString(),
    name: s.name ?? '',
    level: s.level ?? 0,
    clonedFrom: s.clonedFrom ?? null,
    storyNo: s.storyNo,
    time: toSeconds(s.time),
    userID: s.userID,
    permission: s.permission,
    pinToTop: Boolean(s.pinToTop),
    // The owner's own state (a restore loaded into their story): the square shows the public version.
    recovery_point: !square && Boolean(s.recovery_point),
    'first-line': (square ? s.publicFirstLine : s.firstLine) ?? '',
    'last-line': (square ? s.publicLastLine : s.lastLine) ?? '',
    unique_user_count: players,
    penetration_story_total_rounds: rounds,
    story_average_rounds: players ? round2(rounds / players) : 0,
    additional_story_count: chars,
    story_average_count: players ? round2(chars / players) : 0,
  };
}

/** Copies the state fields of a story or an archive (nothing else). */
export function pickState(source: StoryState): StoryState {
  const state = {} as Record<string, unknown>;
  for (const f of STORY_STATE_FIELDS) state[f] = (source as unknown as Record<string, unknown>)[f];
  return state as unknown as StoryState;
}

type Meta = Pick<Story, 'storyNo' | 'userID' | 'permission' | 'level' | 'clonedFrom' | 'pinToTop' | 'time'> & {
  _id: Types.ObjectId;
  branchId?: string | null;
};

/** The play record: meta from the story, content from the story itself or its public snapshot. */
export function toStoryData(meta: Meta, state: StoryState, isOwner: boolean): StoryData {
  return {
    id: meta._id.toHexString(),
    storyNo: meta.storyNo,
    userID: meta.userID,
    name: state.name ?? '',
    main_text: state.main_text ?? '',
    goal: state.goal ?? '',
    role: state.role ?? '',
    user: state.user ?? '',
    'hidden-settings': state.hidden_settings ?? '',
    author: state.author ?? '',
    writer: state.writer ?? '',
    history_table: state.history_table ?? [],
    note_table: state.note_table ?? [],
    prologue_and_characters: state.prologue_and_characters ?? '',
    play_mode: state.play_mode,
    recovery_point: Boolean(state.recovery_point),
    recovery_point_id: state.recovery_point_id ?? null,
    author_remark: state.author_remark ?? '',
    previous_summary: state.previous_summary ?? '',
    model_name: state.model_name ?? '',
    model_type: state.model_type ?? '',
    activity: state.activity ?? null,
    activity_story_index: state.activity_story_index ?? null,
    picture_character_sheet: state.picture_character_sheet ?? '',
    settings_system_prompt_switch: state.settings_system_prompt_switch,
    settings_system_prompt_text: state.settings_system_prompt_text ?? '',
    settings_user_prompt_switch: state.settings_user_prompt_switch,
    settings_user_prompt_text: state.settings_user_prompt_text ?? '',
    settings_camera_switch: Boolean(state.settings_camera_switch),
    settings_camera_consistency_switch: Boolean(state.settings_camera_consistency_switch),
    settings_camera_style_switch: state.settings_camera_style_switch,
    settings_camera_style_prompt_text: state.settings_camera_style_prompt_text ?? '',
    settings_pic_size: state.settings_pic_size,
    permission: meta.permission,
    level: meta.level ?? 0,
    clonedFrom: meta.clonedFrom ?? null,
    pinToTop: Boolean(meta.pinToTop),
    time: toSeconds(meta.time),
    isOwner,
    // Someone else's public version is the branch that was published: it shows as that story's line.
    branch_id: isOwner ? playedBranchId(meta) : meta._id.toHexString(),
  };
}
