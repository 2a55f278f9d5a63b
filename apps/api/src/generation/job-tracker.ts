import type { Logger } from '@nestjs/common';

// How long shutdown waits for running jobs (an unfinished one is reported failed later, by repair).
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The jobs of one kind running on this instance (turns, task requests, pictures). A job belongs to
 * the server, not to the request that started it: tests drain them, and shutdown gives them a few
 * seconds to finish and settle before the app closes.
 */
export class JobTracker {
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  /** Jobs running now. */
  get size(): number {
    return this.running.size;
  }

  /** Counts `work` as running until it settles; answers it (never rejecting: a job reports its own failure). */
  track(work: Promise<unknown>): Promise<void> {
    const run: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    const tracked = run.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    return tracked;
  }

  /** Waits until no job runs (also those started while waiting). */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  /** For beforeApplicationShutdown: waits for running jobs, at most a few seconds. */
  async shutdown(): Promise<void> {
    if (this.running.size === 0) return;
    this.logger.log(`Waiting for ${this.running.size} running ${this.what}`);
    await Promise.race([this.drain(), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
  }
}
