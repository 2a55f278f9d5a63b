/** Where the story's latest turn stands. */
export type TurnState = 'idle' | 'generating' | 'done' | 'failed';

/** At most this many takes (alternatives) of one turn: one more regenerate is TAKES_LIMIT. */
export const TAKES_PER_TURN_MAX = 10;

/**
 * One take of the pending turn: each regenerate adds one beside the earlier ones (each its own
 * generation, charged once when it is done). A failed take is replaced by the next regenerate.
 */
export interface PendingTake {
  turnId: string;
  state: Exclude<TurnState, 'idle'>;
  aiText: string;
  reasoning: string;
  model: string;
  /** Power charged for this take. */
  cost: number;
  errorCode: string | null;
}

/**
 * `GET /api/llm/{id}/pending`: the story's unaccepted turn, kept by the server whether or not the
 * browser stayed to watch it. `idle` means nothing is pending.
 */
export interface PendingTurnData {
  state: TurnState;
  /** The role and raw input of the send (what undo puts back). */
  role: string;
  input: string;
  /** The user part as it goes into the text, and the AI part so far (of the newest take). */
  userText: string;
  aiText: string;
  reasoning: string;
  model: string;
  /** Why a failed turn failed (an ErrorCode). */
  errorCode: string | null;
  /** Power charged (0 until done; 0 when failed). */
  cost: number;
  turnId: string | null;
  /** Every take of the turn, oldest first (the newest is the one the fields above describe); empty when idle. */
  takes: PendingTake[];
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
