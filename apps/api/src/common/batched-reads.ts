import DataLoader from 'dataloader';
import type { Types } from 'mongoose';

// Kept because measured (docs/performance.md, the same-run table): batched reads, batched writes and shared
// request shapes, turned off together, made a stream cost 53.0 ms of API CPU against 35.1 at 100 sends at
// once (70.0 against 40.9 on a paid model) and the median first token 0.7 s (1.4 s) later.

// More ids than this in one turn of the event loop go out as several reads (each reply stays small).
const MAX_BATCH = 200;

/**
 * Reads of single documents by `_id` that many requests make at the same moment (a burst of sends: each
 * reads its story and its lore version), sent together: the reads asked for in one turn of the event
 * loop go out as one `find({ _id: { $in } })` instead of a command each (DataLoader, scheduled on
 * setImmediate so that requests parsed in the same poll phase share it). A read alone waits only for
 * the end of the current turn. Nothing is cached: every call reads the database after it was made.
 */
export class BatchedReads<T extends { _id: Types.ObjectId }> {
  private readonly loader: DataLoader<Types.ObjectId, T | null>;

  /** `read`: the documents among `ids` (any order, missing ones left out). */
  constructor(read: (ids: Types.ObjectId[]) => Promise<T[]>) {
    this.loader = new DataLoader<Types.ObjectId, T | null>(
      async (ids) => {
        const unique = [...new Map(ids.map((id) => [id.toHexString(), id])).values()];
        const found = new Map((await read(unique)).map((doc) => [doc._id.toHexString(), doc]));
        return ids.map((id) => found.get(id.toHexString()) ?? null);
      },
      { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) },
    );
  }

  /** The document with this `_id` (null: there is none). */
  get(id: Types.ObjectId): Promise<T | null> {
    return this.loader.load(id);
  }
}
