import type { INestApplication } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { resolveConfig } from '../../src/config/app-config';
import { validateEnv } from '../../src/config/env.validation';
import type { DatabaseHandle } from '../../src/database/embedded-database';
import { TEST_JWT_SECRET } from '../test-app';
import { ensureBuilt } from './app-process';

/**
 * The stand-in with data on disk, as `pnpm start` runs it offline, in a child process (it is ESM-only
 * and cannot start inside a test worker). Answers the handle startDatabase gives for that case.
 */
export async function startDiskStandIn(dataDir: string, options: { compactBytes?: number } = {}): Promise<DiskStandIn> {
  const args = [dataDir, ...(options.compactBytes ? [String(options.compactBytes)] : [])];
  ensureBuilt();
  const server = spawn(process.execPath, [join(__dirname, 'disk-stand-in.js'), ...args], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^URI (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    server.once('exit', (code) => reject(new Error(`stand-in exited with ${code}`)));
  });
  const end = async (signal: NodeJS.Signals) => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((done) => server.once('exit', done));
    server.kill(signal);
    await exited;
  };
  // stop: SIGKILL, so it ends as a crash would (its journal must hold); terminate: a clean stop.
  return { uri, kind: 'stand-in', stop: () => end('SIGKILL'), terminate: () => end('SIGTERM') };
}

export interface DiskStandIn extends DatabaseHandle {
  /** SIGTERM: the stand-in folds its journal into a snapshot and exits. */
  terminate(): Promise<void>;
}

/** The whole app on the on-disk stand-in, with data (and secrets) in `dataDir`, as `pnpm start` runs it. */
export async function createDiskApp(database: DatabaseHandle, dataDir: string, overrides: Record<string, string> = {}): Promise<INestApplication> {
  const env = validateEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    WEB_DIST_DIR: join(tmpdir(), 'no-web-dist'),
    ...overrides,
  });
  return createApp(resolveConfig(env), database);
}
