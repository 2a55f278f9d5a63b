import { Inject, Injectable, Optional } from '@nestjs/common';
import { DATABASE_HANDLE } from '../database/database.module';
import type { DatabaseHandle } from '../database/embedded-database';

/**
 * The account rules (one code use, one reward claim, counters) rest on single-document atomic updates.
 * The embedded stand-in on disk does not apply concurrent writes atomically, so there (one process by
 * nature) these operations run one at a time; everywhere else this is a pass-through.
 */
@Injectable()
export class SerialWrites {
  private readonly serialize: boolean;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(@Optional() @Inject(DATABASE_HANDLE) database?: DatabaseHandle) {
    this.serialize = database?.writesNotAtomic === true;
  }

  run<T>(operation: () => Promise<T>): Promise<T> {
    if (!this.serialize) return operation();
    const next = this.queue.then(operation, operation);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
