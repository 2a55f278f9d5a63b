/**
 * Where a turn's stream is: how many characters (UTF-16 code units, JavaScript's string length) of its
 * text and of its reasoning the events up to it carried. Every event of a turn's stream has one as its
 * SSE `id:` field, written `<text>:<reasoning>`; it only grows along the stream and is the same whichever
 * API process serves it, so a client that lost the connection rejoins from the last one it read
 * (`Last-Event-ID` on GET /api/llm/{id}/stream) and gets exactly the rest.
 */
export interface StreamPosition {
  text: number;
  reasoning: number;
}

/** A position as an SSE id or the `from` of a rejoin: `<text>:<reasoning>` (`<text>` alone means no reasoning). */
export const STREAM_POSITION_PATTERN = /^\d{1,9}(:\d{1,9})?$/;

export function formatStreamPosition(position: StreamPosition): string {
  return `${position.text}:${position.reasoning}`;
}

/** The position an id names, or null when it is not one. */
export function parseStreamPosition(id: string | null | undefined): StreamPosition | null {
  if (typeof id !== 'string' || !STREAM_POSITION_PATTERN.test(id)) return null;
  const [text, reasoning = '0'] = id.split(':');
  return { text: Number(text), reasoning: Number(reasoning) };
}
