/** Where the story's latest turn stands. */
export type TurnState = 'idle' | 'generating' | 'done' | 'failed';

/**
 * `GET /api/llm/{id}/pending`: the story's unaccepted turn, kept by the server whether or not the
 * browser stayed to watch it. `idle` means nothing is pending.
 */
export interface PendingTurnData {
  state: TurnState;
  /** The role and raw input of the send (what undo puts back). */
  role: string;
  input: string;
  /** The user part as it goes into the text, and the AI part so far. */
  userText: string;
  aiText: string;
  reasoning: string;
  model: string;
  /** Why a failed turn failed (an ErrorCode). */
  errorCode: string | null;
  /** Power charged (0 until done; 0 when failed). */
  cost: number;
  turnId: string | null;
  /** Milliseconds until the next send is allowed (the one-per-second throttle). */
  retryAfterMs: number;
}

/** `data` of `POST /api/llm/{id}/accept`. */
export interface AcceptTurnData {
  /** Characters in the story's text after the append. */
  charCount: number;
  /** The appended text exactly as stored (separators included). */
  appended: string;
}

/** The shortest gap between two sends on one story (spec section 9). */
export const SEND_THROTTLE_MS = 1000;
