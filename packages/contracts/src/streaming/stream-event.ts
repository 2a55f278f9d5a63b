/**
 * One server-sent event of a streamed answer: each SSE `data:` line is one of these as JSON.
 */
export type StreamEvent =
  | { type: 'user'; text: string; role: string }
  | { type: 'delta'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'usage'; promptTokens: number; completionTokens: number; cost: number }
  | { type: 'done'; turnId: string }
  | { type: 'error'; code: string; message: string };

export type StreamEventType = StreamEvent['type'];
