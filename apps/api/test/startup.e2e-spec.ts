import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, ensureBuilt, startAppProcess } from './support/app-process';

// The build is made once (`pnpm test` builds first) and every start runs it, as `pnpm start` does:
// compiling the sources at each start (@swc-node/register) took about 0.7 s more CPU a start.
beforeAll(() => ensureBuilt());

// Starts the real entry point the way `pnpm start` does, with broken configuration.
function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ['dist/main.js'], {
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

// `pnpm start` with no MONGODB_URI picks an embedded database; a data folder keeps the one it picked.
// MONGOMS_SYSTEM_BINARY at a missing file stands for "no mongod here" whether or not the machine is online.
describe('the embedded database a data folder already keeps', () => {
  const noMongod = { MONGOMS_SYSTEM_BINARY: join(tmpdir(), 'no-such-mongod'), LOG_LEVEL: 'debug' };

  it('starts the stand-in again for its data, without trying mongod first, and the data is there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-kept-'));
    const first = await startAppProcess({ DATA_DIR: dataDir, ...noMongod });
    expect(first.output).toMatch(/mongodb-memory-server could not start/);
    expect(first.output).toMatch(/^Database: embedded stand-in .+, because mongodb-memory-server could not start/m);
    const signedUp = await callJson(first, 'POST', '/api/user/login', undefined, { type: 'username', userName: 'keeper', password: 'secret1' });
    expect(signedUp.status).toBe(200);
    await first.stop();

    const again = await startAppProcess({ DATA_DIR: dataDir, ...noMongod });
    try {
      expect(again.output).toMatch(/^Database: embedded stand-in \(CongoDB, offline\), data in .+, because this data folder holds its data\./m);
      expect(again.output).not.toMatch(/mongodb-memory-server could not start/);
      const signedIn = await callJson(again, 'POST', '/api/user/login', undefined, { type: 'username', userName: 'keeper', password: 'secret1' });
      expect(signedIn.status).toBe(200);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('exits with one sentence when the stand-in\'s thread stops by itself, and starts again on the data it kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-kept-'));
    const killFile = join(dataDir, 'kill-at');
    const app = await startAppProcess({ DATA_DIR: dataDir, ...noMongod, LOG_LEVEL: 'warn' }, killFile);
    const signedUp = await callJson(app, 'POST', '/api/user/login', undefined, { type: 'username', userName: 'orphan', password: 'secret1' });
    expect(signedUp.status).toBe(200);
    writeFileSync(killFile, 'stand-in-thread');
    expect(await app.exited).toBe(1);
    expect(app.output).toMatch(/^The embedded database's thread stopped by itself \(\d+\); the app cannot go on without it\.$/m);
    expect(app.output).not.toMatch(/\n\s+at /);

    const again = await startAppProcess({ DATA_DIR: dataDir, ...noMongod, LOG_LEVEL: 'warn' });
    try {
      const signedIn = await callJson(again, 'POST', '/api/user/login', undefined, { type: 'username', userName: 'orphan', password: 'secret1' });
      expect(signedIn.status).toBe(200);
      expect((signedIn.body.data as { userInfo: { userID: string } }).userInfo.userID).toBe((signedUp.body.data as { userInfo: { userID: string } }).userInfo.userID);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('refuses with one sentence, rather than start the stand-in empty, when the folder holds a mongod\'s data and mongod cannot start', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-kept-'));
    mkdirSync(join(dataDir, 'mongo'));
    writeFileSync(join(dataDir, 'mongo', 'WiredTiger'), 'WiredTiger\nWiredTiger 11.2.0\n');
    const result = start({ DATA_DIR: dataDir, MONGOMS_SYSTEM_BINARY: noMongod.MONGOMS_SYSTEM_BINARY });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/The data folder .+ holds the data of a real mongod \(mongodb-memory-server\), which could not start here .+ EMBEDDED_DATABASE=stand-in starts the offline stand-in without that data\./);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toMatch(/^Database: embedded stand-in/m);
  }, 70_000);
});
