import type { AcceptTurnDto, CreateStoryDto, LoadArchiveDto, LoginDto, StreamEvent } from '@taleloom/contracts';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess } from './support/app-process';
import { postEvents, textOf } from './support/play-helpers';

// DATA_DIRs written by version 0.1 (before restored numbers were fixed), by its own `node dist/main.js`
// on the embedded stand-in, then killed: one whose data is all in the journal, one whose data is all in
// the snapshot (written when 0.1 started again, after which 0.1 answered every sign-in with a 500).
// Each must start and work with no manual step: sign in, read what was there, create, play, accept,
// load the old archive, and keep balance == ledger; and again after one more kill.
const FIXTURES = join(__dirname, 'fixtures', 'data-dir-0.1');

describe.each(['journal-only', 'snapshot-only'])('a DATA_DIR left by version 0.1 (%s)', (fixture) => {
  const dataDir = mkdtempSync(join(tmpdir(), `taleloom-upgrade-${fixture}-`));
  let app: AppProcess;
  const env = { DATA_DIR: dataDir, DEMO_MODEL_POINTS: '100', DEMO_MODEL_CHUNK_DELAY_MS: '1', IMAGES_PROVIDER: 'off' };

  beforeAll(async () => {
    ensureBuilt();
    cpSync(join(FIXTURES, fixture), dataDir, { recursive: true });
    app = await startAppProcess(env);
  }, 60_000);
  afterAll(() => app?.stop());

  const call = (method: string, path: string, token?: string, body?: object) =>
    callJson<{ code?: string; data: Record<string, unknown> & Record<string, never> }>(app, method, path, token, body);
  const login = async (userName: string) => {
    const res = await call('POST', '/api/user/login', undefined, { type: 'username', userName, password: 'secret1' } satisfies LoginDto);
    expect(res.status).toBe(200);
    return res.body.data.token as unknown as string;
  };

  it('signs in, shows the old balance, story and archive, and everything still works', async () => {
    const token = await login('early-bird');
    // 5000 from the check-in, 18 for the one turn played on 0.1.
    expect((await call('GET', '/api/user/user-info', token)).body.data).toMatchObject({ userName: 'early-bird', points: 4982 });
    const check = await call('POST', '/api/user/check-in', token, {});
    // Checked in on the day the fixture was made; on any later day the check-in is due again.
    expect([200, 409]).toContain(check.status);
    const list = (await call('GET', '/api/user/story-list', token)).body.data as unknown as { list: { id: string; name: string }[] };
    const old = list.list.find((s) => s.name === 'Before the fix')!;
    expect(old).toBeTruthy();
    const story = (await call('GET', `/api/llm?id=${old.id}`, token)).body.data as unknown as { main_text: string };
    expect(story.main_text).toContain('I wake the keeper.');

    // A new story takes the next story number (the counter written by 0.1 is incremented).
    const created = await call('POST', '/api/llm', token, { name: 'After the fix', prologue_and_characters: 'A new day.' } satisfies CreateStoryDto);
    expect(created.status).toBe(201);

    // The old story plays on (its turn record and throttle were written by 0.1).
    const sent = await postEvents(app.baseURL, token, `/api/llm/${old.id}`, { content: 'The keeper wakes up.' });
    expect(sent.events.at(-1)?.type).toBe('done');
    const user = sent.events.find((e) => e.type === 'user') as Extract<StreamEvent, { type: 'user' }>;
    const accepted = await call('POST', `/api/llm/${old.id}/accept`, token, { userContent: user.text, newContent: textOf(sent.events), turnId: user.turnId } satisfies AcceptTurnDto);
    expect(accepted.status).toBe(200);

    // The archive saved on 0.1 loads what it saved.
    const [entry] = (await call('GET', `/api/archive/${old.id}`, token)).body.data as unknown as { _id: string; archive_index: number }[];
    expect(entry.archive_index).toBe(1);
    expect((await call('POST', '/api/archive/load', token, { archive_id: entry._id } satisfies LoadArchiveDto)).status).toBe(200);
    expect(((await call('GET', `/api/llm?id=${old.id}`, token)).body.data as unknown as { main_text: string }).main_text).toBe(story.main_text);

    // New users join beside the old ones.
    await login(`newcomer-${fixture}`);
  }, 60_000);

  it('keeps all of it across one more kill, with balance == ledger', async () => {
    await app.kill();
    const verify = await verifyLedgerCommand({ DATA_DIR: dataDir });
    expect(verify.status).toBe(0);
    app = await startAppProcess(env);
    const token = await login('early-bird');
    const list = (await call('GET', '/api/user/story-list', token)).body.data as unknown as { list: { name: string }[] };
    expect(list.list.map((s) => s.name).sort()).toEqual(['After the fix', 'Before the fix']);
    await login(`newcomer-${fixture}`);
  }, 60_000);
});
