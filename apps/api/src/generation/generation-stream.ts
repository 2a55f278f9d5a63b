import { formatStreamPosition, type StreamEvent, type StreamPosition } from '@taleloom/contracts';

/** A stream event and, for a turn's, its SSE id (its StreamPosition). */
export type Listener = (event: StreamEvent, id?: string) => void;

// Events kept for the first listener (the connection that started the generation), which subscribes
// just after the generation has started: it must not miss the first events.
const EARLY_EVENTS_MAX = 256;

/**
 * What a turn's generation keeps while it runs, so that a client that lost its connection (or another
 * device) rejoins it from memory on the process that runs it: the text and reasoning so far, the events
 * before the first piece (`user`, `summary`) and the last ones (`usage`, `done` / `error`). Let go of
 * when the generation ends (whoever rejoins then reads the stored turn).
 */
interface Kept {
  text: string;
  reasoning: string;
  head: StreamEvent[];
}

/**
 * One running generation. It belongs to the server: listeners (open connections) come and go and
 * the generation runs on to the end regardless. Live events are relayed; the events sent before the
 * first listener came are kept for it. A turn's generation (`positioned`) gives every event its
 * StreamPosition as an id, and lets a listener rejoin from any position while it runs (`follow`).
 */
export class Generation {
  private readonly listeners = new Set<Listener>();
  private finished = false;
  private early: [StreamEvent, string | undefined][] | null = [];
  private readonly position: StreamPosition = { text: 0, reasoning: 0 };
  private kept: Kept | null;
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    readonly id: string,
    readonly storyId: string,
    positioned = false,
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
    this.kept = positioned ? { text: '', reasoning: '', head: [] } : null;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** Where the stream is now (a turn's generation; zeros for another). */
  get at(): StreamPosition {
    return { ...this.position };
  }

  emit(event: StreamEvent): void {
    const ends = event.type === 'done' || event.type === 'error';
    const kept = this.kept;
    let id: string | undefined;
    if (kept) {
      if (event.type === 'delta') {
        kept.text += event.text;
        this.position.text += event.text.length;
      } else if (event.type === 'reasoning') {
        kept.reasoning += event.text;
        this.position.reasoning += event.text.length;
      } else if (event.type === 'user' || event.type === 'summary') kept.head.push(event);
      id = formatStreamPosition(this.position);
    }
    if (this.early && (this.early.length < EARLY_EVENTS_MAX || ends || event.type === 'usage')) this.early.push([event, id]);
    for (const l of this.listeners) {
      try {
        l(event, id);
      } catch {
        // A broken connection must not stop the generation.
      }
    }
    if (ends) {
      this.finished = true;
      this.listeners.clear();
      // Whoever rejoins from now on reads the stored turn.
      this.kept = null;
      this.resolveDone();
    }
  }

  /** Follows the events from now on (the first listener gets those sent before it came too); returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    const early = this.early;
    this.early = null;
    for (const [event, id] of early ?? []) {
      try {
        listener(event, id);
      } catch {
        // as in emit
      }
    }
    if (!this.finished) this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Rejoins a running turn's stream: from `from` (null: from the start, its `user` and `summary`
   * events first), the text and reasoning after it as one event each, then the live events. Null when
   * the generation has ended or keeps nothing (the stored turn answers then). A position ahead of the
   * stream's (a client that read events this process never sent) gets only what comes after it.
   */
  follow(from: StreamPosition | null, listener: Listener): (() => void) | null {
    const kept = this.kept;
    if (!kept || this.finished) return null;
    const id = formatStreamPosition(this.position);
    const catchUp: StreamEvent[] = from ? [] : [...kept.head];
    const reasoningFrom = from?.reasoning ?? 0;
    const textFrom = from?.text ?? 0;
    if (kept.reasoning.length > reasoningFrom) catchUp.push({ type: 'reasoning', text: kept.reasoning.slice(reasoningFrom) });
    if (kept.text.length > textFrom) catchUp.push({ type: 'delta', text: kept.text.slice(textFrom) });
    let skip = from && (from.text > this.position.text || from.reasoning > this.position.reasoning) ? { ...from } : null;
    try {
      for (const event of catchUp) listener(event, id);
    } catch {
      // as in emit
    }
    const live: Listener = skip
      ? (event, eventId) => {
          // Ahead of this stream: the pieces up to `from` are left out.
          if (skip && (event.type === 'delta' || event.type === 'reasoning')) {
            const field = event.type === 'delta' ? 'text' : 'reasoning';
            const at = this.position[field];
            const start = event.text.length - (at - skip[field]);
            if (start >= event.text.length) return;
            if (start > 0) event = { type: event.type, text: event.text.slice(start) };
            if (this.position.text >= skip.text && this.position.reasoning >= skip.reasoning) skip = null;
          }
          listener(event, eventId);
        }
      : listener;
    this.listeners.add(live);
    return () => this.listeners.delete(live);
  }
}
