/** One server-sent event: its `id:` (null: none) and its `data:` lines joined. */
export interface SseBlock {
  id: string | null;
  data: string;
}

/**
 * The one reader of server-sent events for tests and benchmarks: text goes in as it arrives (from
 * fetch's stream through a TextDecoder, or node:http with setEncoding('utf8')), whole events come out.
 * An event without data (a comment, a keep-alive) is skipped, as a browser's EventSource skips it.
 */
export class SseBlocks {
  private buffer = '';

  /** Adds text; answers the events it completes, in order. */
  push(text: string): SseBlock[] {
    this.buffer += text;
    const out: SseBlock[] = [];
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) !== -1) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      const joined = data.join('\n');
      if (joined) out.push({ id, data: joined });
    }
    return out;
  }

  /** What came after the last whole event (a JSON refusal, which has no blank line). */
  get rest(): string {
    return this.buffer;
  }
}

/** The events of a fetch answer's body as they arrive (a caller that stops early aborts the request itself). */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseBlock> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const sse = new SseBlocks();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield* sse.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
