import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { DatabaseHandle } from '../../src/database/embedded-database';

/**
 * The stand-in with data on disk, as `pnpm start` runs it offline, in a child process (it is ESM-only
 * and cannot start inside a jest worker). Answers the handle startDatabase gives for that case.
 */
export async function startDiskStandIn(dataDir: string): Promise<DatabaseHandle> {
  const server = spawn(process.execPath, ['-r', '@swc-node/register', 'test/support/disk-stand-in.ts', dataDir], {
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
  // stop: the child has no handler for SIGTERM, so it ends as a crash would (its journal must hold).
  return {
    uri,
    kind: 'stand-in',
    stop: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGKILL');
      await exited;
    },
  };
}
