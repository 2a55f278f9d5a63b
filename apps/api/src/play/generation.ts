import type { StreamEvent } from '@taleloom/contracts';

type Listener = (event: StreamEvent) => void;

/**
 * One running generation. It belongs to the server: listeners (open connections) come and go and
 * the generation runs on to the end regardless. Only live events are relayed (nothing is buffered
 * per stream); whoever comes later reads the stored turn instead.
 */
export class Generation {
  private readonly listeners = new Set<Listener>();
  private finished = false;
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
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A broken connection must not stop the generation.
      }
    }
    if (event.type === 'done' || event.type === 'error') {
      this.finished = true;
      this.listeners.clear();
      this.resolveDone();
    }
  }

  /** Follows the events from now on; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    if (!this.finished) this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
