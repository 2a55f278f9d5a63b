import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each API test file took in a whole `pnpm test` on 2 cores (three workers).
 * A fresh clone has no timing cache, so vitest orders files by size, and a slow file started last (a
 * restart journey) runs alone while the other workers idle. Slowest first, the workers finish together. A file not
 * listed goes after these, in vitest's own order.
 */
const SECONDS: Record<string, number> = {
  'test/restart-journey-accounts.e2e-spec.ts': 82,
  'test/faults-branches.e2e-spec.ts': 47,
  'test/security-ownership.e2e-spec.ts': 31,
  'test/faults-crash.e2e-spec.ts': 29,
  'test/restart-journey-story-tools.e2e-spec.ts': 29,
  'test/security-fuzz.e2e-spec.ts': 26,
  'test/faults-database.e2e-spec.ts': 25,
  'test/restart-journey-lore-models-pictures.e2e-spec.ts': 23,
  'test/startup.e2e-spec.ts': 16,
  'test/stand-in-conformance.e2e-spec.ts': 15,
  'test/stand-in-upgrade.e2e-spec.ts': 13,
  'src/models/chat-provider.spec.ts': 13,
  'test/rejoin.e2e-spec.ts': 12,
  'test/graceful-stop.e2e-spec.ts': 11,
  'test/faults-burst.e2e-spec.ts': 11,
  'test/faults-provider.e2e-spec.ts': 11,
  'test/files.e2e-spec.ts': 10,
  'test/security-input.e2e-spec.ts': 8,
  'src/common/worker-thread.spec.ts': 8,
  'test/play-recovery.e2e-spec.ts': 7,
  'test/branches-guards.e2e-spec.ts': 6,
  'test/power-ledger-repair.e2e-spec.ts': 6,
  'test/spread-repair.e2e-spec.ts': 6,
  'test/cluster.e2e-spec.ts': 6,
  'test/pictures-drawing.e2e-spec.ts': 5,
  'src/common/express-adapter.spec.ts': 5,
  'test/stories-read.e2e-spec.ts': 5,
  'test/stand-in-journal.e2e-spec.ts': 4,
  'test/play-sending.e2e-spec.ts': 4,
  'test/security-tokens.e2e-spec.ts': 4,
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (file: TestSpecification) => SECONDS[relative(file.project.config.root, file.moduleId)] ?? 0;
    // Array.prototype.sort is stable: unlisted files keep vitest's own order among themselves.
    return [...bySize].sort((a, b) => seconds(b) - seconds(a));
  }
}
