// Child process for start-disk-stand-in.ts: the stand-in with data on disk (it is ESM-only,
// so it cannot start inside a jest worker). Prints its URI, runs until killed; SIGTERM stops it
// cleanly (its journal folded into a snapshot), as `pnpm start` does on Ctrl+C.
// Arguments: the data folder, and optionally the journal size that triggers a compaction.
import { startDatabase } from '../../src/database/embedded-database';

const [dataDir, compactBytes] = process.argv.slice(2);
void startDatabase({ mode: 'stand-in', dataDir, journalCompactBytes: compactBytes ? Number(compactBytes) : undefined }).then((handle) => {
  process.once('SIGTERM', () => void handle.stop().then(() => process.exit(0)));
  console.log(`URI ${handle.uri}`);
});
