import type { mongo } from 'mongoose';

// Kept because measured (docs/performance.md, the same-run table): batched reads, batched writes and shared
// request shapes, turned off together, made a stream cost 53.0 ms of API CPU against 35.1 at 100 sends at
// once (70.0 against 40.9 on a paid model) and the median first token 0.7 s (1.4 s) later.

/** A write error of one operation of a bulk write (the driver's and mongoose's bulk errors carry them). */
interface IndexedWriteError {
  index: number;
  code?: unknown;
  errmsg?: unknown;
}

/**
 * Small writes whose callers need only to know when they are done (a running generation's text every
 * second), sent together: those asked for in one turn of the event loop go out as one bulk write (one
 * command, one socket write) instead of a command each. Each operation is applied as it would be alone
 * (an unordered bulk write); each caller's promise rejects with the bulk's error when its own operation
 * failed (or the whole bulk did): with the server's error for that operation (its code, e.g. a duplicate
 * key), or the bulk's own. Large documents go in small bulks (`maxBatch`): one bulk of hundreds of
 * prompts held up the reads and claims of the sends behind it (first tokens later under a burst, measured).
 * `doneOf` tells each caller what the bulk's result says of its operation (see everyModified).
 */
export class BatchedWrites<Op, Done = void> {
  private queue: { op: Op; done: (value: Done) => void; fail: (error: unknown) => void }[] = [];

  /** `maxBatch`: more operations than this in one turn go out as several bulk writes (of larger documents). */
  constructor(
    private readonly write: (ops: Op[]) => Promise<unknown>,
    private readonly maxBatch = Infinity,
    private readonly doneOf: (result: unknown, operations: number) => Done = () => undefined as Done,
  ) {}

  add(op: Op): Promise<Done> {
    return new Promise<Done>((done, fail) => {
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
      (result) => {
        const value = this.doneOf(result, batch.length);
        for (const b of batch) b.done(value);
      },
      (error: unknown) => {
        const failed = writeErrorsByIndex(error);
        // The operations that went through: what the bulk's result says of them is not known here.
        const value = this.doneOf(undefined, batch.length);
        batch.forEach((b, i) => {
          if (!failed) return b.fail(error);
          const own = failed.get(i);
          if (!own) return b.done(value);
          b.fail(new BulkOperationError(own, error));
        });
      },
    );
  }
}

/**
 * The writes to `collection` of one turn of the event loop as unordered bulk writes: each operation
 * applied as it would be alone, and a failed one named by its index (what BatchedWrites relies on).
 */
export function bulkWritesTo<T extends mongo.Document, Done = void>(
  collection: mongo.Collection<T>,
  maxBatch = Infinity,
  doneOf?: (result: unknown, operations: number) => Done,
): BatchedWrites<mongo.AnyBulkWriteOperation<T>, Done> {
  return new BatchedWrites((ops) => collection.bulkWrite(ops, { ordered: false }), maxBatch, doneOf);
}

/** The server's error for one operation of a bulk write (its `code`, e.g. 11000 for a duplicate key); `cause`: the bulk's error. */
export class BulkOperationError extends Error {
  readonly code: unknown;

  constructor(own: IndexedWriteError, bulk: unknown) {
    super(typeof own.errmsg === 'string' ? own.errmsg : `operation ${own.index} of a bulk write failed`, { cause: bulk });
    this.name = 'BulkOperationError';
    this.code = own.code;
  }
}

/**
 * For a bulk of conditional single-document updates: true when every one of them changed its document
 * (so this one did); false when some did not, which of them is not told (a bulk of one: exactly this one).
 */
export function everyModified(result: unknown, operations: number): boolean {
  return (result as { modifiedCount?: unknown } | undefined)?.modifiedCount === operations;
}

// The operations a bulk write error names, by index (null: the whole bulk failed, e.g. the database is away).
function writeErrorsByIndex(error: unknown): Map<number, IndexedWriteError> | null {
  const errors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  if (!Array.isArray(errors) || !errors.length) return null;
  const list = errors as IndexedWriteError[];
  return list.every((e) => typeof e?.index === 'number') ? new Map(list.map((e) => [e.index, e])) : null;
}
