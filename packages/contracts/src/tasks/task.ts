/** Kinds of target (spec section 3 "Target"): something that happens in the story world, or a change of feeling. */
export const TARGET_TYPES = ['reality', 'emotion'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** Score options of a target (spec section 9). */
export const TARGET_SCORES = [1, 2, 3] as const;

/** A task group holds 1 to 4 targets (spec sections 5 and 9). */
export const TASK_TARGETS_MIN = 1;
export const TASK_TARGETS_MAX = 4;

/** How many task groups one suggestion request asks the model for. */
export const TASK_SUGGESTION_COUNT = 3;

/** The web polls `GET /api/tasks/status/{id}` this often (spec section 9). */
export const TASK_STATUS_POLL_MS = 30_000;

/** The score dialog closes this long after a successful scoring (spec section 9). */
export const SCORE_DIALOG_CLOSE_MS = 3_000;

export const TASK_TITLE_MAX_LENGTH = 200;
export const SERIES_NAME_MAX_LENGTH = 100;
export const MAIN_CHARACTER_MAX_LENGTH = 50;
/** The longest passage a completed target cites, and the longest reason kept. */
export const EVIDENCE_MAX_LENGTH = 600;
export const REASON_MAX_LENGTH = 300;

/** One goal of a task group (spec section 3 "Target"; field names are our own). */
export interface TaskTarget {
  /** Stable id within the story (edits match targets by it); empty on a target not saved yet. */
  id: string;
  title: string;
  type: TargetType;
  /** 1 to 3. */
  score: number;
  completed: boolean;
  /** The turn (the story's accepted rounds) at which it was judged completed. */
  complete_turn: number | null;
  /** The model's estimate (0-100) that the player achieves it, when the target was written; null: not estimated yet. */
  original_probability: number | null;
  /** The estimate at the latest scoring. */
  current_probability: number | null;
  /** The passage of the story that shows the target done, quoted verbatim (empty while open). */
  evidence: string;
  /** The judge's short reason at the latest scoring. */
  reason: string;
}

/** A group of targets (spec section 3 "Task group"). */
export interface TaskGroup {
  /** Unique across stories. */
  global_tasks_id: string;
  /** The group's number within its story (1, 2, ...; never reused). */
  tasks_id: number;
  series_name: string;
  main_character: string;
  /** Sum of the scores of its completed targets. */
  score: number;
  targets: TaskTarget[];
  tasks_created_at_turn: number;
  /** The turn of the latest scoring; null: never scored. */
  tasks_scored_at_turn: number | null;
  /** `tasks_id`s of the groups that come before / after this one (kept symmetric by the server). */
  preceding_task_groups: number[];
  subsequent_task_groups: number[];
}

/** A target as the model suggests it (before it is accepted into a group). */
export interface TaskTargetDraft {
  title: string;
  type: TargetType;
  score: number;
  probability: number | null;
}

/** A suggested task group (streamed by `POST /api/tasks/{id}/create`). */
export interface TaskGroupDraft {
  series_name: string;
  main_character: string;
  targets: TaskTargetDraft[];
}

/** The latest suggestions of a story, kept until replaced; `accepted_as` is the group an accepted one became. */
export interface TaskSuggestions {
  batch: string;
  groups: (TaskGroupDraft & { accepted_as: number | null })[];
}

/** `data` of `GET /api/tasks?story_id=` (spec section 3 "Task info"). */
export interface TaskInfo {
  story_id: string;
  tasks_list: TaskGroup[];
  /** The group the task play modes steer toward (the newest with open targets, or the next one after a completed group). */
  current_tasks_id: number | null;
  /** The story's accepted rounds so far. */
  current_turn: number;
  total_score: number;
  /** Score requests refused because the plot had not moved on since the last scoring. */
  total_forbidden_turns: number;
  /** Groups whose targets are all completed. */
  complete_task: number;
  suggestions: TaskSuggestions | null;
  /** A story of an activity: task editing, deletion, new groups and mode change are not allowed. */
  locked: boolean;
  /** Changes with every write of the tasks: the status poll compares it. */
  rev: number;
}

/** One group in `GET /api/tasks/status/{id}`. */
export interface TaskStatusItem {
  index: number;
  tasks_id: number;
  series_name: string;
  score: number;
  max_score: number;
  completed_targets: number;
  total_targets: number;
  tasks_scored_at_turn: number | null;
  /** The plot has moved on since the latest scoring and open targets remain. */
  can_score: boolean;
}

/** `data` of `GET /api/tasks/status/{id}` (polled every 30 s). */
export interface TaskStatusData {
  rev: number;
  current_turn: number;
  current_tasks_id: number | null;
  total_score: number;
  total_forbidden_turns: number;
  complete_task: number;
  /** A suggestion or scoring request running for the story. */
  running: 'create' | 'score' | null;
  list: TaskStatusItem[];
}

/** One target's judgement, streamed by `POST /api/tasks/{id}/{index}/score`. */
export interface TaskVerdict {
  /** The target's position in its group (0-based). */
  index: number;
  target_id: string;
  completed: boolean;
  /** The quoted passage (verbatim from the story) for a completed target. */
  evidence: string;
  reason: string;
  /** 0-100. */
  probability: number | null;
  /** The model said completed, but its quote is not in the story: not counted. */
  unproven: boolean;
}
