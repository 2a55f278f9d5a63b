import { startDatabase } from './database/embedded-database';
import { mkdtempSync } from 'node:fs';
(async () => {
  const h = await startDatabase({ mode: 'stand-in', dataDir: mkdtempSync('/tmp/standin-file-') });
  console.log('URI ' + h.uri);
})();
