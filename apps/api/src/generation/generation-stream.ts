import type { StreamEvent } from '@taleloom/contracts';

type Listener = (event: StreamEvent) => void;

// Events kept for the first listener (the connection that started the generation), which subscribes
// just after the generation has started: it must not miss the first events.
const EARLY_EVENTS_MAX = 256;

/**
 * One running generation. It belongs to the server: listeners (open connections) come and go and
 * the generation runs on to the end regardless. Live events are relayed; only the events sent before
 * the first listener came are kept for it. Whoever comes later reads the stored turn instead.
 */
export class Generation {
  private readonly listeners = new Set<Listener>();
  private finished = false;
  private early: StreamEvent[] | null = [];
  readonly done: Promise<void>;
  private resolveDone!: () => void;

  constructor(
    readonly id: string,
    readonly storyId: string,
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  get isFinished(): boolean {
    return this.finished;
  }

  emit(event: StreamEvent): void {
    const ends = event.type === 'done' || event.type === 'error';
    if (this.early && (this.early.length < EARLY_EVENTS_MAX || ends || event.type === 'usage')) this.early.push(event);
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A broken connection must not stop the generation.
      }
    }
    if (ends) {
      this.finished = true;
      this.listeners.clear();
      this.resolveDone();
    }
  }

  /** Follows the events from now on; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    const early = this.early;
    this.early = null;
    for (const event of early ?? []) {
      try {
        listener(event);
      } catch {
        // as in emit
      }
    }
    if (!this.finished) this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
