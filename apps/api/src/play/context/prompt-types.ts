import type { LoreLeftOut, PromptMessage } from '@taleloom/contracts';
import type { CompiledLore } from '../../lore/lore-activation';
import type { ChatMessage } from '../../models/chat-provider';

export type PlayMode = 'tasks_master' | 'tasks_guider' | 'fly_free';

/** What prompt assembly reads from a story (a subset of the stored record). */
export interface PromptStory {
  prologue_and_characters: string;
  hidden_settings: string;
  goal: string;
  author_remark: string;
  previous_summary: string;
  main_text: string;
  play_mode: PlayMode;
  settings_system_prompt_switch: 'default' | 'custom';
  settings_system_prompt_text: string;
  settings_user_prompt_switch: 'default' | 'custom';
  settings_user_prompt_text: string;
  /** The open targets of the current task group; the task play modes steer toward them. */
  open_targets?: PromptTarget[];
  /** The story's lore, compiled (see lore/): the entries its keywords fire enter the prompt. */
  lore?: CompiledLore | null;
}

/** A task target as the play prompt shows it. */
export interface PromptTarget {
  title: string;
  type: 'reality' | 'emotion';
}

export interface PromptBudget {
  contextWindow: number;
  maxOutput: number;
}

/** The player's line for this turn (empty content: just continue). */
export interface PromptTurn {
  role: string;
  content: string;
}

export interface AssembledPrompt {
  messages: ChatMessage[];
  /** The same messages part by part, each with its tokens (what the context inspector shows). */
  parts: PromptMessage[];
  /** Tokens of the whole prompt: the parts' tokens (chunk-summed: an upper bound within a few) plus `overheadTokens`. */
  promptTokens: number;
  /** Tokens of the messages' role markers and separators. */
  overheadTokens: number;
  /** Where the story text included in the prompt begins (a character index in main_text). */
  textStart: number;
  /**
   * Text that is in neither the prompt nor the summary, to be folded into the summary:
   * main_text[from, to). Null when nothing is lost.
   */
  fold: { from: number; to: number } | null;
  /** What the lore had and took, and the entries that fired but did not fit. */
  lore: { budget: number; used: number; scanDepth: number; leftOut: LoreLeftOut[] };
}
