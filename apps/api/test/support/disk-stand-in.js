// Child process for start-disk-stand-in.ts: the stand-in with data on disk, from the build (dist/), as
// `pnpm start` runs it (it is ESM-only, so it cannot start inside a test worker; run from the sources
// through @swc-node/register, each start took about a second more). Prints its URI, runs until killed;
// SIGTERM stops it cleanly (its journal folded into a snapshot), as `pnpm start` does on Ctrl+C.
// Arguments: the data folder, and optionally the journal size that triggers a compaction.
const { join } = require('node:path');
const { startDatabase } = require(join(__dirname, '..', '..', 'dist', 'database', 'embedded-database.js'));

const [dataDir, compactBytes] = process.argv.slice(2);
void startDatabase({ mode: 'stand-in', dataDir, journalCompactBytes: compactBytes ? Number(compactBytes) : undefined }).then((handle) => {
  process.once('SIGTERM', () => void handle.stop().then(() => process.exit(0)));
  console.log(`URI ${handle.uri}`);
});
