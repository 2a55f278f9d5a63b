import { Injectable } from '@nestjs/common';
import type { Generation } from '../generation/generation-stream';

/** A generation this process runs, and whose story it is. */
export interface RunningTurn {
  generation: Generation;
  userID: string;
}

/**
 * The turns this process is generating, by story: a rejoin that lands here follows the generation
 * from memory (Generation.follow) instead of the stored text. A generation leaves when it ends, and
 * with it what it kept of its text.
 */
@Injectable()
export class RunningTurns {
  private readonly byStory = new Map<string, RunningTurn>();

  /** Adds a generation that started (again: nothing changes); it leaves by itself when it ends. */
  add(generation: Generation, userID: string): void {
    if (generation.isFinished || this.byStory.get(generation.storyId)?.generation === generation) return;
    this.byStory.set(generation.storyId, { generation, userID });
    void generation.done.then(() => {
      if (this.byStory.get(generation.storyId)?.generation === generation) this.byStory.delete(generation.storyId);
    });
  }

  get(storyId: string): RunningTurn | null {
    return this.byStory.get(storyId) ?? null;
  }

  get size(): number {
    return this.byStory.size;
  }
}
