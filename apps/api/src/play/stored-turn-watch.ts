import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { toObjectId } from '../common/object-id';
import { TurnRepository, type FollowedTurn } from './turn.repository';

// How often the turns followed from another process are read. Their runner stores the text every
// second (TurnRunner): a follower here is at most that plus this behind.
export const STORED_TURN_POLL_MS = 250;

/** Called with the turn as stored (null: there is none any more) after every read. */
export type TurnWatcher = (turn: FollowedTurn | null) => void;

/**
 * The turns this process follows for rejoined streams whose generation runs on another process (or
 * ran: the stored turn is all there is). One timer and one read for all of them, however many
 * streams follow however many turns; the timer stops when nobody follows.
 */
@Injectable()
export class StoredTurnWatch implements OnModuleDestroy {
  private readonly watchers = new Map<string, Set<TurnWatcher>>();
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(private readonly turns: TurnRepository) {}

  /** Calls `watcher` with the stored turn of `storyId` after every read, until the returned function is called. */
  add(storyId: string, watcher: TurnWatcher): () => void {
    let set = this.watchers.get(storyId);
    if (!set) this.watchers.set(storyId, (set = new Set()));
    set.add(watcher);
    if (!this.timer) {
      this.timer = setInterval(() => void this.read(), STORED_TURN_POLL_MS);
      this.timer.unref();
    }
    return () => {
      const now = this.watchers.get(storyId);
      if (!now?.delete(watcher)) return;
      if (!now.size) this.watchers.delete(storyId);
      if (!this.watchers.size) this.stop();
    };
  }

  onModuleDestroy(): void {
    this.watchers.clear();
    this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async read(): Promise<void> {
    // A read slower than the timer: the next one waits for it.
    if (this.reading || !this.watchers.size) return;
    this.reading = true;
    const ids = [...this.watchers.keys()];
    try {
      const found = await this.turns.followed(ids.map((id) => toObjectId(id)));
      const byId = new Map(found.map((turn) => [turn._id.toHexString(), turn]));
      // Only the turns this read asked for: a stream that came meanwhile waits for the next one.
      for (const id of ids) {
        for (const watcher of [...(this.watchers.get(id) ?? [])]) {
          try {
            watcher(byId.get(id) ?? null);
          } catch {
            // One broken follower does not stop the others.
          }
        }
      }
    } catch {
      // The database did not answer: the followers wait, and the next read tries again.
    } finally {
      this.reading = false;
    }
  }
}
