import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each browser file took in a fresh clone's `pnpm test` on 2 shared cores (three files at a
 * time, screenshots off as in CI; only the order counts). A fresh clone has no timing cache, so vitest orders files by size, and a small but slow
 * file started last runs alone while the other workers idle. Slowest first, the workers finish
 * together. A file not listed goes after these, in vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'dialogs.e2e-spec.ts': 153,
  'lived-in.e2e-spec.ts': 86,
  'play.e2e-spec.ts': 67,
  'play-follow.e2e-spec.ts': 66,
  'tasks.e2e-spec.ts': 54,
  'accounts.e2e-spec.ts': 53,
  'files.e2e-spec.ts': 50,
  'walking-skeleton.e2e-spec.ts': 50,
  'stories.e2e-spec.ts': 41,
  'lore.e2e-spec.ts': 37,
  'branches.e2e-spec.ts': 36,
  'custom-models.e2e-spec.ts': 34,
  'rejoin.e2e-spec.ts': 31,
  'pictures.e2e-spec.ts': 30,
  'tour.e2e-spec.ts': 30,
  'security.e2e-spec.ts': 24,
  'first-screen.e2e-spec.ts': 18,
  'power.e2e-spec.ts': 18,
  'play-details.e2e-spec.ts': 14,
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (file: TestSpecification) => SECONDS[basename(file.moduleId)] ?? 0;
    // Array.prototype.sort is stable: unlisted files keep vitest's own order among themselves.
    return [...bySize].sort((a, b) => seconds(b) - seconds(a));
  }
}
