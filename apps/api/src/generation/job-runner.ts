import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { JobTracker } from './job-tracker';

/**
 * The lifecycle every background runner shares (turns, task requests, pictures): its jobs are
 * tracked from the moment they are asked for, tests drain them, and shutdown waits a few seconds for
 * them to finish and settle.
 */
export abstract class JobRunner implements BeforeApplicationShutdown {
  protected readonly logger: Logger;
  protected readonly jobs: JobTracker;

  constructor(name: string, what: string) {
    this.logger = new Logger(name);
    this.jobs = new JobTracker(this.logger, what);
  }

  /** Waits for every running job (tests and shutdown). */
  drain(): Promise<void> {
    return this.jobs.drain();
  }

  // Before the HTTP server, the database connection and the demo model and image servers close
  // (onApplicationShutdown): a turn streaming or a picture being drawn at a stop still finishes.
  beforeApplicationShutdown(): Promise<void> {
    return this.jobs.shutdown();
  }

  /** Runs `work` from the next turn of the event loop (after the caller has subscribed to its events); what it throws is logged. */
  protected startSoon(work: () => Promise<void>): void {
    const run = new Promise<void>((r) => setImmediate(r))
      .then(work)
      .catch((error: unknown) => this.logger.error(error instanceof Error ? error.stack : String(error)));
    void this.jobs.track(run);
  }
}
