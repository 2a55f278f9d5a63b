import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each browser file took in a fresh clone's `pnpm test` on 2 shared cores (three files at a
 * time, screenshots off as in CI; only the order counts). A fresh clone has no timing cache, so vitest orders files by size, and a small but slow
 * file started last runs alone while the other workers idle. Slowest first, the workers finish
 * together. A file not listed goes after these, in vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'dialogs.e2e-spec.ts': 77,
  'lived-in.e2e-spec.ts': 72,
  'play.e2e-spec.ts': 61,
  'files.e2e-spec.ts': 55,
  'play-follow.e2e-spec.ts': 51,
  'walking-skeleton.e2e-spec.ts': 46,
  'tasks.e2e-spec.ts': 45,
  'custom-models.e2e-spec.ts': 42,
  'accounts.e2e-spec.ts': 42,
  'stories.e2e-spec.ts': 38,
  'lore.e2e-spec.ts': 38,
  'first-screen.e2e-spec.ts': 38,
  'tour.e2e-spec.ts': 36,
  'pictures.e2e-spec.ts': 36,
  'branches.e2e-spec.ts': 35,
  'security.e2e-spec.ts': 34,
  'rejoin.e2e-spec.ts': 32,
  'power.e2e-spec.ts': 22,
  'play-details.e2e-spec.ts': 11,
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (file: TestSpecification) => SECONDS[basename(file.moduleId)] ?? 0;
    // Array.prototype.sort is stable: unlisted files keep vitest's own order among themselves.
    return [...bySize].sort((a, b) => seconds(b) - seconds(a));
  }
}
