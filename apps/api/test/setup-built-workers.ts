import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { builtIsFresh } from './support/app-process';

// The app's worker threads (pictures, file reading, docx export, the on-disk stand-in) start from the
// sources in the tests: @swc-node/register and TypeScript load in each new thread and compile its
// modules, about 0.6 s of CPU more a start than the built module (dist/, which `pnpm test` builds
// first). While dist/ is as new as src/, a thread starts on its built module, as in the running app;
// otherwise (a lone run after an edit), from the sources as before. The thread's code is the same
// either way: the build and the tests compile with the same .swcrc.
vi.mock('../src/common/worker-entry', async (importOriginal) => {
  const sources = await importOriginal<typeof import('../src/common/worker-entry')>();
  const SRC = join(__dirname, '..', 'src');
  const DIST = join(__dirname, '..', 'dist');
  return {
    workerEntry(file: string): ReturnType<typeof sources.workerEntry> {
      const path = relative(SRC, file);
      const built = join(DIST, `${path}.js`);
      if (!path.startsWith('..') && existsSync(built) && builtIsFresh()) return [built, {}];
      return sources.workerEntry(file);
    },
  };
});
