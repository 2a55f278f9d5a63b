/**
 * One clock for the per-second text flushes of every running generation. Each stream used to flush
 * on its own second (when a chunk came a second after its last flush), so a hundred streams made a
 * hundred small writes a second at a hundred moments; on one clock they fall in the same turn of the
 * event loop and go out as a few bulk writes (TurnRepository.writeText). A stream whose provider is
 * quiet still has its last text stored within a tick.
 */
export class FlushClock {
  private readonly due = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly everyMs: number) {}

  /** Calls `flush` on every tick until the returned function is called. */
  add(flush: () => void): () => void {
    this.due.add(flush);
    if (!this.timer) {
      this.timer = setInterval(this.tick, this.everyMs);
      this.timer.unref();
    }
    return () => {
      this.due.delete(flush);
      if (!this.due.size && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  private readonly tick = (): void => {
    for (const flush of this.due) flush();
  };
}
