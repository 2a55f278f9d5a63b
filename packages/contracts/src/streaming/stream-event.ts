/**
 * One server-sent event of a streamed answer: each SSE `data:` line is one of these as JSON.
 * A generation sends `user`, optionally `summary` (older text was folded into the previous summary),
 * then `reasoning`/`delta` pieces, then `usage` and `done` — or `error` (the partial text is kept).
 */
export type StreamEvent =
  | { type: 'user'; text: string; role: string; turnId: string }
  | { type: 'summary'; text: string }
  | { type: 'delta'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'usage'; promptTokens: number; completionTokens: number; cost: number }
  | { type: 'done'; turnId: string }
  | { type: 'error'; code: string; message: string };

export type StreamEventType = StreamEvent['type'];
