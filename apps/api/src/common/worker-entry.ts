import { existsSync } from 'node:fs';

// Apart from worker-thread.ts (and its AppException, which loads Nest and the contracts): the embedded
// database's thread starts with this alone, before the app has loaded anything else.

/**
 * How to start a worker thread on the module `file` (a path without its extension): the built module (.js),
 * or, run from the sources (the tests, `pnpm dev`), the TypeScript one through the loader they run with.
 */
export function workerEntry(file: string): [string, { eval?: boolean }] {
  if (existsSync(`${file}.js`)) return [`${file}.js`, {}];
  // swc's native binding stays loaded in this thread: unloaded with the first thread that loaded it, it
  // crashed the process (SIGSEGV) when the next thread loaded it (a picture thread after an export's).
  // From the sources only (as @swc-node/register below): the built app never comes here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous: loaded before the thread starts
  require(require.resolve('@swc/core'));
  return [`require(${JSON.stringify(require.resolve('@swc-node/register'))}); require(${JSON.stringify(`${file}.ts`)});`, { eval: true }];
}
