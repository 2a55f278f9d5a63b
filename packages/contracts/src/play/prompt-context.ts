/** What a part of a prompt is (the context inspector shows them in the order they were sent). */
export type PromptPartKind =
  | 'system'
  | 'play_mode'
  | 'prologue'
  | 'hidden_settings'
  | 'summary'
  | 'lore'
  | 'text'
  | 'author_note'
  | 'user_prompt'
  | 'line';

/** Where the keyword that fired a lore entry was found. */
export type LoreSource = 'text' | 'line' | 'author_note' | 'entry';

/** Why a lore entry is in the prompt. */
export interface LoreFiring {
  entryId: string;
  title: string;
  /** Always on: no keyword needed. */
  constant: boolean;
  /** The keyword that fired it (empty for an always-on entry), and the secondary keyword that matched too. */
  keyword: string;
  secondaryKeyword: string;
  source: LoreSource | null;
  /** For `source: 'entry'`: the title of the entry whose content held the keyword. */
  viaTitle?: string;
  /** The round of recursion it fired in (0: the scanned text itself). */
  depth: number;
}

/** One part of a sent prompt. The parts of a message, joined, are its content exactly. */
export interface PromptPart {
  kind: PromptPartKind;
  /** The part's exact text (with its heading and the blank line before it). */
  text: string;
  tokens: number;
  /** For `lore`: which entry and why. */
  lore?: LoreFiring;
  /** For `text`: where the window begins and ends in the story text as it was then. */
  from?: number;
  to?: number;
  /**
   * For `text`: false when the story text has been edited since, so that the window can no longer be
   * shown (`text` is then empty; its tokens are still those sent).
   */
  available?: boolean;
  /**
   * For `text`: the name a character card's `{{user}}` was read as in the window (the player's role, or
   * "you" / "你" for the narrator); the story text itself keeps the macro.
   */
  user?: string;
}

/** One message of a sent prompt. */
export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  parts: PromptPart[];
}

/** A lore entry that matched but did not fit the lore budget (or the room left). */
export interface LoreLeftOut extends LoreFiring {
  tokens: number;
}

/**
 * `GET /api/llm/{id}/context`: the prompt of the story's pending or last turn, part by part (null before
 * the first send). `promptTokens` is the parts' tokens plus `overheadTokens` (role markers and separators).
 */
export interface PromptContextData {
  turnId: string;
  /** Epoch milliseconds of the send. */
  at: number;
  model: string;
  contextWindow: number;
  maxOutput: number;
  promptTokens: number;
  overheadTokens: number;
  messages: PromptMessage[];
  lore: {
    /** The budget the lore had in this prompt (the story's setting, or less when the room was short). */
    budget: number;
    used: number;
    scanDepth: number;
    leftOut: LoreLeftOut[];
  };
  /** Older story text left out of the prompt (it no longer fitted): characters, from the start of the text. */
  textLeftOutChars: number;
  /** Whether older text was folded into the previous summary before this turn, and the lore entries the fold was given. */
  summaryFolded: boolean;
  summaryLore: string[];
}
