/** A write error of one operation of a bulk write (the driver's and mongoose's bulk errors carry them). */
interface IndexedWriteError {
  index: number;
}

/**
 * Small writes whose callers need only to know when they are done (a running generation's text every
 * second), sent together: those asked for in one turn of the event loop go out as one bulk write (one
 * command, one socket write) instead of a command each. Each operation is applied as it would be alone
 * (an unordered bulk write); each caller's promise rejects with the bulk's error when its own operation
 * failed (or the whole bulk did). Large documents go in small bulks (`maxBatch`): one bulk of hundreds of
 * prompts held up the reads and claims of the sends behind it (first tokens later under a burst, measured).
 */
export class BatchedWrites<Op> {
  private queue: { op: Op; done: () => void; fail: (error: unknown) => void }[] = [];

  /** `maxBatch`: more operations than this in one turn go out as several bulk writes (of larger documents). */
  constructor(
    private readonly write: (ops: Op[]) => Promise<unknown>,
    private readonly maxBatch = Infinity,
  ) {}

  add(op: Op): Promise<void> {
    return new Promise<void>((done, fail) => {
      if (this.queue.push({ op, done, fail }) === 1) setImmediate(this.flush);
    });
  }

  private readonly flush = (): void => {
    const queued = this.queue;
    this.queue = [];
    for (let i = 0; i < queued.length; i += this.maxBatch) this.send(queued.slice(i, i + this.maxBatch));
  };

  private send(batch: typeof this.queue): void {
    let written: Promise<unknown>;
    try {
      written = this.write(batch.map((b) => b.op));
    } catch (error) {
      written = Promise.reject(error);
    }
    written.then(
      () => {
        for (const b of batch) b.done();
      },
      (error: unknown) => {
        const failed = writeErrorIndexes(error);
        batch.forEach((b, i) => (failed && !failed.has(i) ? b.done() : b.fail(error)));
      },
    );
  }
}

// The operations a bulk write error names (null: the whole bulk failed, e.g. the database is away).
function writeErrorIndexes(error: unknown): Set<number> | null {
  const errors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  if (!Array.isArray(errors) || !errors.length) return null;
  const indexes = (errors as IndexedWriteError[]).map((e) => e?.index);
  return indexes.every((i) => typeof i === 'number') ? new Set(indexes) : null;
}
