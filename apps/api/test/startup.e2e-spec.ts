import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Starts the real entry point the way `pnpm dev` does, with broken configuration.
function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: join(__dirname, '..'),
    env: { PATH: process.env.PATH ?? '', DATA_DIR: mkdtempSync(join(tmpdir(), 'taleloom-start-')), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('start-up with bad configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, /Configuration variable PORT is invalid/],
    [{ MONGODB_URI: 'mysql://db' }, /Configuration variable MONGODB_URI is invalid.*must start with mongodb:\/\//],
    [{ JWT_SECRET: 'too-short' }, /Configuration variable JWT_SECRET is invalid.*at least 32 characters/],
  ])('%j stops the process with a sentence naming the variable', (env, sentence) => {
    const result = start(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(sentence);
    expect(result.stderr).not.toMatch(/\n\s+at /); // a sentence, not a stack trace
  });
});
