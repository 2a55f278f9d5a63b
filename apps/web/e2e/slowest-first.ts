import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each browser file took in a whole `pnpm test` on 2 shared cores (three files at a time,
 * screenshots off as in CI). A fresh clone has no timing cache, so vitest orders files by size, and a
 * small but slow file started last runs alone while the other workers idle. Slowest first, the
 * workers finish together. A file not listed goes after these, in vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'lived-in.e2e-spec.ts': 196,
  'dialogs.e2e-spec.ts': 158,
  'play-follow.e2e-spec.ts': 152,
  'branches.e2e-spec.ts': 93,
  'play.e2e-spec.ts': 82,
  'accounts.e2e-spec.ts': 67,
  'tour.e2e-spec.ts': 64,
  'walking-skeleton.e2e-spec.ts': 61,
  'lore.e2e-spec.ts': 59,
  'files.e2e-spec.ts': 49,
  'tasks.e2e-spec.ts': 49,
  'stories.e2e-spec.ts': 40,
  'custom-models.e2e-spec.ts': 38,
  'pictures.e2e-spec.ts': 33,
  'security.e2e-spec.ts': 33,
  'rejoin.e2e-spec.ts': 31,
  'play-details.e2e-spec.ts': 29,
  'power.e2e-spec.ts': 20,
  'first-screen.e2e-spec.ts': 4,
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (file: TestSpecification) => SECONDS[basename(file.moduleId)] ?? 0;
    // Array.prototype.sort is stable: unlisted files keep vitest's own order among themselves.
    return [...bySize].sort((a, b) => seconds(b) - seconds(a));
  }
}
