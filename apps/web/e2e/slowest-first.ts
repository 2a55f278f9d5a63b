import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each browser file took in a whole run of the suite on 2 shared cores (three files at a time,
 * screenshots off as in CI; other work kept the load average between 10 and 18, so only the order
 * counts). A fresh clone has no timing cache, so vitest orders files by size, and a small but slow
 * file started last runs alone while the other workers idle. Slowest first, the workers finish
 * together. A file not listed goes after these, in vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'dialogs.e2e-spec.ts': 197,
  'lived-in.e2e-spec.ts': 195,
  'play-follow.e2e-spec.ts': 158,
  'branches.e2e-spec.ts': 127,
  'accounts.e2e-spec.ts': 119,
  'play.e2e-spec.ts': 117,
  'tasks.e2e-spec.ts': 107,
  'walking-skeleton.e2e-spec.ts': 101,
  'tour.e2e-spec.ts': 96,
  'lore.e2e-spec.ts': 92,
  'files.e2e-spec.ts': 90,
  'stories.e2e-spec.ts': 83,
  'custom-models.e2e-spec.ts': 71,
  'pictures.e2e-spec.ts': 58,
  'security.e2e-spec.ts': 55,
  'play-details.e2e-spec.ts': 51,
  'rejoin.e2e-spec.ts': 44,
  'power.e2e-spec.ts': 26,
  'first-screen.e2e-spec.ts': 5,
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (file: TestSpecification) => SECONDS[basename(file.moduleId)] ?? 0;
    // Array.prototype.sort is stable: unlisted files keep vitest's own order among themselves.
    return [...bySize].sort((a, b) => seconds(b) - seconds(a));
  }
}
