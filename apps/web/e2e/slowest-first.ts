import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each browser file took in a fresh-clone CI run on 2 cores (the headless shell, two files at a
 * time). A fresh clone has no timing cache, so vitest orders files by size, and a small but slow file
 * (the tour: 89 s) started last ran 40 s alone while the other worker idled. Slowest first, the
 * workers finish together. A file not listed goes after these, in vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'dialogs.e2e-spec.ts': 148,
  'lived-in.e2e-spec.ts': 108,
  'tour.e2e-spec.ts': 89,
  'branches.e2e-spec.ts': 74,
  'accounts.e2e-spec.ts': 49,
  'lore.e2e-spec.ts': 49,
  'walking-skeleton.e2e-spec.ts': 42,
  'play.e2e-spec.ts': 38,
  'tasks.e2e-spec.ts': 38,
  'files.e2e-spec.ts': 35,
  'stories.e2e-spec.ts': 31,
  'pictures.e2e-spec.ts': 28,
  'custom-models.e2e-spec.ts': 27,
  'security.e2e-spec.ts': 15,
  'power.e2e-spec.ts': 15,
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (file: TestSpecification) => SECONDS[basename(file.moduleId)] ?? 0;
    // Array.prototype.sort is stable: unlisted files keep vitest's own order among themselves.
    return [...bySize].sort((a, b) => seconds(b) - seconds(a));
  }
}
