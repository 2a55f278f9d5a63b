import type { CreateStoryDto, LoginDto } from '@taleloom/contracts';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess } from './support/app-process';
import { postEvents, textOf } from './support/play-helpers';

// The worker processes of the first one (Linux: /proc/<pid>/task/<pid>/children).
function children(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Several API processes on one port (API_WORKERS=2, docs/scaling.md): the built app on the
 * embedded database, which the first process keeps while two workers serve. Turns played at once on
 * both, charged once each; a worker killed is replaced and the port keeps answering; a stop ends them
 * all and the database with them, the ledger exact.
 */
describe('API_WORKERS=2: two API processes behind one port', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-cluster-'));
  let app: AppProcess;
  const env = { DATA_DIR: dataDir, API_WORKERS: '2', DEMO_MODEL_POINTS: '100', DEMO_MODEL_CHUNK_DELAY_MS: '1', IMAGES_PROVIDER: 'off' };

  beforeAll(async () => {
    ensureBuilt();
    app = await startAppProcess(env);
    // Both workers listen.
    for (let waited = 0; app.output.split('TaleLoom is running').length < 3 && waited < 60_000; waited += 100) await sleep(100);
  }, 90_000);
  afterAll(() => app?.stop());

  const call = (method: string, path: string, token?: string, body?: object) =>
    callJson<{ code?: string; data: Record<string, unknown> }>(app, method, path, token, body);

  it('serves turns on both workers, charges each once, replaces a killed worker, and stops cleanly', async () => {
    const workers = children(app.pid);
    expect(workers).toHaveLength(2);
    // The first process names the port the workers share (the system's pick: the test asks for PORT=0).
    expect(app.output).toContain(`TaleLoom: 2 API processes on port ${new URL(app.baseURL).port}\n`);
    const login = await call('POST', '/api/user/login', undefined, { type: 'username', userName: 'many-cores', password: 'secret1' } satisfies LoginDto);
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;
    expect((await call('POST', '/api/user/check-in', token, {})).status).toBe(200);
    const before = (await call('GET', '/api/user/user-info', token)).body.data.points as number;

    // Six turns at once, on six stories (connections are handed to the workers in turn).
    const stories = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (i) => (await call('POST', '/api/llm', token, { name: `Core ${i}`, prologue_and_characters: 'A lighthouse.' } satisfies CreateStoryDto)).body.data.id as string),
    );
    const turns = await Promise.all(stories.map((id) => postEvents(app.baseURL, token, `/api/llm/${id}`, { content: 'The lamp turns.' })));
    for (const turn of turns) {
      expect(turn.events.at(-1)?.type).toBe('done');
      expect(textOf(turn.events).length).toBeGreaterThan(20);
    }
    const charged = turns.reduce((sum, turn) => sum + ((turn.events.find((e) => e.type === 'usage') as { cost: number } | undefined)?.cost ?? 0), 0);
    expect(charged).toBeGreaterThan(0);
    expect((await call('GET', '/api/user/user-info', token)).body.data.points).toBe(before - charged);

    // A worker dies: another takes its place and the port keeps answering.
    process.kill(workers[0], 'SIGKILL');
    // One read per check: two reads could see the dead worker not yet reaped, then neither it nor its replacement.
    const replaced = () => {
      const now = children(app.pid);
      return now.length === 2 && !now.includes(workers[0]);
    };
    for (let waited = 0; !replaced() && waited < 30_000; waited += 100) await sleep(100);
    expect(children(app.pid)).toHaveLength(2);
    for (let i = 0; i < 4; i++) expect((await call('GET', '/api/user/user-info', token)).status).toBe(200);

    // A stop ends the workers and the database (its folder's lock is let go: verify:ledger opens it).
    await app.stop();
    expect(await app.exited).toBe(0);
    const verified = await verifyLedgerCommand({ DATA_DIR: dataDir });
    expect(verified.status).toBe(0);
    expect(verified.stdout).toContain('No drift');
  }, 120_000);
});
