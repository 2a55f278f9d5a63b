import type {
  AcceptTurnDto,
  AnalyticsEventDto,
  CheckInDto,
  CreateBranchDto,
  CreateLoreEntryDto,
  CreateStoryDto,
  ExportDto,
  ImportLoreDto,
  LoadArchiveDto,
  LoginDto,
  LoreBookData,
  PromptContextData,
  SaveArchiveDto,
  SendTurnDto,
  StreamEvent,
  UpdateStoryDto,
} from '@taleloom/contracts';
import { ErrorCode } from '@taleloom/contracts';
import { mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDocx } from '../file-factories';
import { ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess, type NodeRuntime } from '../support/app-process';
import { LISTENERS } from '../../src/listen';
import { listeningDescriptors } from '../support/listening-descriptors';
import { postEvents, textOf } from '../support/play-helpers';
import { NODE_LINE, node24, versionOf } from './node-24';

// The built app (dist/main.js) on Node.js 24, started as `pnpm start` starts it (its start script's
// node flags, the embedded database in a fresh DATA_DIR, the offline demo model and picture generator),
// and one user's journey over HTTP through every module. The test run itself stays on the machine's
// Node: only the app and its commands run on Node 24. The full suites prove the same on Node 20.

const DEMO_POINTS = 100;
const PASSWORD = 'secret1';
const STEP_TIMEOUT = 60_000;

type Json = { status: string; code?: string; data: unknown };

/** The node flags of the API's start script, the one `pnpm start` runs. */
function startScriptFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [node, ...words] = scripts['start:prod'].split(/\s+/);
  expect([node, words.at(-1)]).toEqual(['node', 'dist/main.js']);
  return words.slice(0, -1);
}

describe(`the built API on Node.js ${NODE_LINE}: one journey through every module`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), `taleloom-node${NODE_LINE}-`));
  const env = { DATA_DIR: dataDir, DEMO_MODEL_POINTS: String(DEMO_POINTS), DEMO_MODEL_CHUNK_DELAY_MS: '1', LOG_LEVEL: 'warn' };
  let runtime: NodeRuntime;
  let app: AppProcess;
  let token = '';
  let storyId = '';
  let lastSend = 0;

  beforeAll(async () => {
    // No Node 24 (no registry, no package for this machine) fails every test here with npm's words.
    runtime = { node: node24(), flags: startScriptFlags() };
    ensureBuilt();
    app = await startAppProcess(env, undefined, runtime);
  }, 240_000);
  // Its data folder goes with it (each run made one in the system's temporary folder).
  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, body?: object, auth = true): Promise<{ status: number; body: Json; bytes: Buffer; type: string }> {
    const res = await fetch(`${app.baseURL}${path}`, {
      method,
      headers: { ...(auth && token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, type, bytes, body: type.includes('application/json') ? (JSON.parse(bytes.toString('utf8')) as Json) : ({} as Json) };
  }
  async function ok<T = Record<string, unknown>>(method: string, path: string, body?: object): Promise<T> {
    const res = await call(method, path, body);
    if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${res.bytes.toString('utf8').slice(0, 500)}\n${app.output.slice(-2000)}`);
    return res.body.data as T;
  }
  async function upload(data: Buffer, name: string): Promise<{ status: number; body: Json }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);
    const res = await fetch(`${app.baseURL}/api/upload_parse`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: (await res.json()) as Json };
  }
  const points = async () => (await ok<{ points: number }>('GET', '/api/user/user-info')).points;
  const storyText = async (id = storyId) => (await ok<{ main_text: string }>('GET', `/api/llm?id=${id}`)).main_text;

  /** Sends a turn (one send a second per story is the product's rule), accepts it; answers its events and what it cost. */
  async function playTurn(send: SendTurnDto): Promise<{ events: StreamEvent[]; cost: number }> {
    const wait = lastSend + 1100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const res = await postEvents(app.baseURL, token, `/api/llm/${storyId}`, send);
    lastSend = Date.now();
    expect([res.status, res.contentType]).toEqual([200, expect.stringContaining('text/event-stream')]);
    expect(res.events.filter((e) => e.type === 'error')).toEqual([]);
    expect(res.events.at(-1)?.type).toBe('done');
    const user = res.events.find((e) => e.type === 'user') as Extract<StreamEvent, { type: 'user' }>;
    await ok('POST', `/api/llm/${storyId}/accept`, { userContent: user.text, newContent: textOf(res.events), turnId: user.turnId } satisfies AcceptTurnDto);
    return { events: res.events, cost: res.events.reduce((sum, e) => sum + (e.type === 'usage' ? e.cost : 0), 0) };
  }

  it(`runs on Node.js ${NODE_LINE} with the start script's flags, says which database it opened`, async () => {
    expect(versionOf(runtime.node)?.split('.')[0]).toBe(String(NODE_LINE));
    expect(readlinkSync(`/proc/${app.pid}/exe`)).toBe(realpathSync(runtime.node));
    expect(readFileSync(`/proc/${app.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(runtime.flags));
    expect(app.output).toMatch(/^Database: embedded .+ data in /m);
    expect(app.output).not.toMatch(/^\s+at /m);
    // Node.js 24 listens with SO_REUSEPORT: LISTENERS sockets on the port, held by the process itself.
    expect(listeningDescriptors(app.pid, Number(new URL(app.baseURL).port))).toBe(LISTENERS);
    expect((await call('GET', '/api/health')).status).toBe(200);
  });

  it('signs up, signs in again, checks in once (power), and answers the public reads', async () => {
    const login = { type: 'username', userName: 'voyager', password: PASSWORD } satisfies LoginDto;
    const first = await call('POST', '/api/user/login', login, false);
    expect(first.status).toBe(200);
    const again = await call('POST', '/api/user/login', login, false);
    expect(again.status).toBe(200);
    const data = again.body.data as { token: string; userInfo: { userID: string } };
    expect(data.userInfo.userID).toBe((first.body.data as typeof data).userInfo.userID);
    token = data.token;
    const wrong = await call('POST', '/api/user/login', { ...login, password: 'wrong-one' }, false);
    expect([wrong.status, wrong.body.code]).toEqual([401, ErrorCode.WRONG_PASSWORD]);

    const before = await points();
    const checkIn = await ok<{ awarded: number; points: number }>('POST', '/api/user/check-in', {} satisfies CheckInDto);
    expect(checkIn.awarded).toBeGreaterThan(0);
    expect(await points()).toBe(before + checkIn.awarded);
    expect((await call('POST', '/api/user/check-in', {})).body.code).toBe(ErrorCode.ALREADY_CHECKED_IN);

    expect(await ok<{ value: string }[]>('GET', '/api/model_list')).toEqual(expect.arrayContaining([expect.objectContaining({ value: expect.any(String) })]));
    expect(await ok('GET', '/api/site-config')).toEqual({ qqGroup: null, discordUrl: null, activity: null });
    expect(await ok('GET', '/api/captcha')).toEqual({ provider: 'svg', id: expect.any(String), svg: expect.stringMatching(/^<svg[^]*<\/svg>$/), expiresInSeconds: 120 });
    expect((await call('POST', '/api/analytics/events', { name: 'login_success', path: '/login' } satisfies AnalyticsEventDto)).status).toBe(202);
    expect(await ok<unknown[]>('GET', '/api/custom-models')).toEqual([]);
  });

  it('streams a turn from the demo model and settles it once: the balance falls by exactly its cost, recorded once', async () => {
    storyId = (await ok<{ id: string }>('POST', '/api/llm', { name: 'Lantern Road', prologue_and_characters: 'Mira walks the lantern road at dusk.\nThe lamps wake one by one.' } satisfies CreateStoryDto)).id;
    const before = await points();
    const { events, cost } = await playTurn({ content: 'Mira lights the first lamp.' });
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(1);
    expect(cost).toBeGreaterThan(0);
    expect(await storyText()).toContain('Mira lights the first lamp.');
    expect(await points()).toBe(before - cost);
    const { records } = await ok<{ records: { points: number }[] }>('GET', '/api/user/user-points?pageSize=50');
    expect(records.filter((r) => r.points === -cost)).toHaveLength(1);
    // The accepted turn's picture, drawn by the demo generator (free by default), then served.
    const deadline = Date.now() + 30_000;
    let pictures: { status: string; fileId: string | null }[] = [];
    while (Date.now() < deadline) {
      ({ pictures } = await ok<{ pictures: typeof pictures }>('GET', `/api/llm/${storyId}/pictures`));
      if (pictures.length && pictures.every((p) => p.status !== 'pending')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(pictures.map((p) => p.status)).toEqual(['ready']);
    const image = await call('GET', `/api/images/${pictures[0].fileId}`);
    expect([image.status, image.type, image.bytes.length > 100]).toEqual([200, expect.stringMatching(/^image\//), true]);
  }, STEP_TIMEOUT);

  it('adds lore that fires in the next prompt; exports it, reads the file back and imports it into another story', async () => {
    await ok('POST', `/api/lore/${storyId}/entries`, { title: 'Ashford Keep', keys: ['Ashford'], content: 'Ashford Keep guards the northern pass.' } satisfies CreateLoreEntryDto);
    await playTurn({ content: 'We ride for Ashford.' });
    const context = await ok<PromptContextData>('GET', `/api/llm/${storyId}/context`);
    expect(context.messages.flatMap((m) => m.parts.flatMap((p) => (p.kind === 'lore' && p.lore ? [p.lore.title] : [])))).toEqual(['Ashford Keep']);

    const file = await call('GET', `/api/lore/${storyId}/export`);
    expect([file.status, file.type]).toEqual([200, expect.stringMatching(/^application\/json/)]);
    const parsed = await upload(file.bytes, 'lantern-lore.json');
    expect([parsed.status, (parsed.body.data as { kind: string }).kind]).toEqual([200, 'lore_book']);
    const other = (await ok<{ id: string }>('POST', '/api/llm', { name: 'Second', prologue_and_characters: 'Elsewhere.' } satisfies CreateStoryDto)).id;
    const imported = await ok<LoreBookData>('POST', `/api/lore/${other}/import`, { book: (parsed.body.data as { lore: ImportLoreDto['book'] }).lore, mode: 'replace' } satisfies ImportLoreDto);
    expect(imported.entries.map((e) => [e.title, e.keys, e.content])).toEqual([['Ashford Keep', ['Ashford'], 'Ashford Keep guards the northern pass.']]);
  }, STEP_TIMEOUT);

  it('imports a Word document, and exports the story as docx and txt that read back', async () => {
    const manuscript = await makeDocx(['The ferry waits at Gull Rock.', '渡船在鸥岩等候。']);
    const read = await upload(manuscript, 'manuscript.docx');
    expect(read.status).toBe(200);
    expect((read.body.data as { content: string }).content).toBe('The ferry waits at Gull Rock.\n渡船在鸥岩等候。');

    const text = await storyText();
    const docx = await call('POST', '/api/export', { format: 'docx', story_id: storyId } satisfies ExportDto);
    expect([docx.status, docx.bytes.subarray(0, 2).toString('latin1')]).toEqual([200, 'PK']);
    const back = await upload(docx.bytes, 'lantern.docx');
    expect((back.body.data as { content: string }).content).toContain('Mira lights the first lamp.');
    const txt = await call('POST', '/api/export', { format: 'txt', story_id: storyId } satisfies ExportDto);
    expect([txt.status, txt.bytes.toString('utf8').includes(text.split('\n')[0])]).toEqual([200, true]);
  }, STEP_TIMEOUT);

  it('saves an archive, changes the story, and loads the archive back; branches and tasks answer', async () => {
    const saved = await storyText();
    await ok('POST', '/api/archive/save', { story_id: storyId, archive_index: 2 } satisfies SaveArchiveDto);
    await ok('PATCH', `/api/llm?id=${storyId}`, { main_text: `${saved}\nA line the archive does not have.` } satisfies UpdateStoryDto);
    const [entry] = await ok<{ _id: string; archive_index: number }[]>('GET', `/api/archive/${storyId}`);
    expect(entry.archive_index).toBe(2);
    await ok('POST', '/api/archive/load', { archive_id: entry._id } satisfies LoadArchiveDto);
    expect(await storyText()).toBe(saved);

    const at = saved.indexOf('\n');
    const forked = await ok<{ story: { main_text: string } }>('POST', `/api/llm/${storyId}/branches`, { at } satisfies CreateBranchDto);
    expect(forked.story.main_text).toBe(saved.slice(0, at));
    await ok('POST', `/api/llm/${storyId}/branches/${storyId}/play`, {});
    expect(await storyText()).toBe(saved);
    expect(await ok<{ tasks_list: unknown[] }>('GET', `/api/tasks?story_id=${storyId}`)).toMatchObject({ tasks_list: [] });
  }, STEP_TIMEOUT);

  it(`stops on SIGTERM mid-turn (the turn finishes, exit 0); verify:ledger on Node ${NODE_LINE} finds no drift; a start again reads everything back`, async () => {
    const text = await storyText();
    const balance = await points();
    const lore = await ok<LoreBookData>('GET', `/api/lore/${storyId}`);
    const wait = lastSend + 1100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    let stopping: Promise<void> | undefined;
    const last = await postEvents(app.baseURL, token, `/api/llm/${storyId}`, { content: 'The last lamp.' }, undefined, {
      onEvent: (event) => {
        if (event.type === 'delta' && !stopping) stopping = app.stop();
      },
    });
    expect(stopping).toBeDefined();
    expect(last.events.at(-1)?.type).toBe('done');
    await stopping;
    expect(await app.exited).toBe(0);
    const cost = last.events.reduce((sum, e) => sum + (e.type === 'usage' ? e.cost : 0), 0);

    const verify = await verifyLedgerCommand({ DATA_DIR: dataDir }, runtime.node);
    expect({ status: verify.status, last: verify.stdout.trim().split('\n').slice(-3), err: verify.stderr }).toEqual({
      status: 0,
      last: [
        'No drift: every balance equals the sum of its ledger.',
        'No stray hold: every open hold belongs to a running action.',
        "No counter drift: the square's counters equal their records.",
      ],
      err: '',
    });

    app = await startAppProcess(env, undefined, runtime);
    expect(await storyText()).toBe(text);
    expect(await points()).toBe(balance - cost);
    expect(await ok<LoreBookData>('GET', `/api/lore/${storyId}`)).toEqual(lore);
    expect(await ok<{ state: string; aiText: string }>('GET', `/api/llm/${storyId}/pending`)).toMatchObject({ state: 'done', aiText: textOf(last.events) });
  }, STEP_TIMEOUT);
});
