// Child process for start-disk-stand-in.ts: the stand-in with data on disk (it is ESM-only,
// so it cannot start inside a jest worker). Prints its URI, runs until killed.
import { startDatabase } from '../../src/database/embedded-database';

void startDatabase({ mode: 'stand-in', dataDir: process.argv[2] }).then((handle) => {
  console.log(`URI ${handle.uri}`);
});
