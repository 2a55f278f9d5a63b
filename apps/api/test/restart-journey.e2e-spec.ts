import type {
  BranchesData,
  BranchSwitchData,
  CreateBranchDto,
  AcceptTurnDto,
  AddTaskGroupDto,
  ClonePublicStoryDto,
  CreateCustomModelDto,
  CreateStoryDto,
  ExportDto,
  CreateLoreEntryDto,
  LoadArchiveDto,
  LoreBookData,
  LoginDto,
  PromptContextData,
  RequestPictureDto,
  SaveArchiveDto,
  SendTurnDto,
  UpdateLoreEntryDto,
  StreamEvent,
  UpdateStoryDto,
} from '@taleloom/contracts';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess } from './support/app-process';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { postEvents, textOf } from './support/play-helpers';

// A user's journey on the embedded default exactly as `pnpm start` runs it (the built dist/main.js, a
// fresh DATA_DIR, no MONGODB_URI: the on-disk embedded database), stopped and started again between
// every two steps, alternately with SIGTERM (Ctrl+C) and SIGKILL (a crash). After each restart:
// - everything every user can read is read back exactly as it was before the stop;
// - every earlier step still works (its probe runs again, on data written before the restarts);
// - while the app is stopped, `verify:ledger` on DATA_DIR finds every balance equal to its ledger.
// Generation costs power (demo model, pictures) so holds, settlements and royalties are on disk too.

const DEMO_POINTS = 100;
const PICTURE_POINTS = 10;
const PASSWORD = 'secret1';
const STEP_TIMEOUT = 60_000;

interface User {
  name: string;
  token: string;
  userID: string;
}

type Json = Record<string, unknown> & { data?: unknown };

describe('restart journey: the embedded default keeps everything across SIGTERM and SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-journey-'));
  let app: AppProcess | undefined;
  let stub: OpenAIStub;
  let restarts = 0;
  const users = new Map<string, User>();
  const stories = new Map<string, { owner: string; id: string }>();
  const lastSend = new Map<string, number>();
  const probes: { step: string; prober: string; run: () => Promise<void> }[] = [];
  const facts: Record<string, unknown> = {};

  // With TEST_MONGODB_URI (a real MongoDB) the same journey runs on it: only the app restarts.
  const mongodbUri = process.env.TEST_MONGODB_URI ? databaseNamed(process.env.TEST_MONGODB_URI, `journey_${Date.now()}`) : undefined;
  const env = () => ({
    ...(mongodbUri ? { MONGODB_URI: mongodbUri } : {}),
    DATA_DIR: dataDir,
    DEMO_MODEL_POINTS: String(DEMO_POINTS),
    DEMO_MODEL_CHUNK_DELAY_MS: '1',
    IMAGES_POINTS: String(PICTURE_POINTS),
    CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
    LOG_LEVEL: 'warn',
    // The probes send more often than one person would (not what this suite is about).
    GENERATION_USER_PER_MINUTE: '200',
  });

  // --- HTTP -------------------------------------------------------------------------------------
  async function call(method: string, path: string, user?: string, body?: object): Promise<{ status: number; body: Json; bytes?: Buffer }> {
    const res = await fetch(`${app!.baseURL}${path}`, {
      method,
      headers: {
        ...(user ? { Authorization: `Bearer ${users.get(user)!.token}` } : {}),
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('application/json')) return { status: res.status, body: (await res.json()) as Json };
    return { status: res.status, body: {}, bytes: Buffer.from(await res.arrayBuffer()) };
  }
  const get = (path: string, user?: string) => call('GET', path, user);
  const post = (path: string, user?: string, body: object = {}) => call('POST', path, user, body);
  async function ok(path: string, user: string, body?: object, method = body ? 'POST' : 'GET', status = [200, 201]): Promise<Json> {
    const res = await call(method, path, user, body);
    if (!status.includes(res.status)) throw new Error(`${method} ${path} as ${user}: ${res.status} ${JSON.stringify(res.body)}\n${app!.output.slice(-2000)}`);
    return res.body;
  }

  // One send a second per story (SEND_THROTTLE_MS, kept on the story's turn) is the product's rule: wait
  // it out rather than be refused. The server counts it from when a send arrived, so the wait runs from
  // the end of the story's last stream: a slow arrival (a process just started) followed by a fast one
  // cannot bring two sends closer than that on the server's clock. Sends to other stories need no wait.
  async function stream(user: string, path: string, body: object): Promise<StreamEvent[]> {
    const wait = (lastSend.get(path) ?? 0) + 1100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const res = await postEvents(app!.baseURL, users.get(user)!.token, path, body);
    lastSend.set(path, Date.now());
    if (res.status !== 200) throw new Error(`POST ${path} as ${user}: ${res.status} ${JSON.stringify(res.body)}\n${app!.output.slice(-2000)}`);
    const error = res.events.find((e) => e.type === 'error');
    if (error) throw new Error(`POST ${path} as ${user} streamed an error: ${JSON.stringify(error)}`);
    expect(res.events.at(-1)?.type).toBe('done');
    return res.events;
  }

  const costOf = (events: StreamEvent[]) => events.reduce((sum, e) => sum + (e.type === 'usage' ? e.cost : 0), 0);

  /** Sends a turn (and regenerates it) and accepts it; answers the text the story grew by and the power charged. */
  async function playTurn(user: string, storyKey: string, send: SendTurnDto, regenerate = 0): Promise<{ added: string; cost: number }> {
    const id = stories.get(storyKey)!.id;
    let events = await stream(user, `/api/llm/${id}`, send);
    let cost = costOf(events);
    for (let i = 0; i < regenerate; i++) {
      const before = textOf(events);
      events = await stream(user, `/api/llm/${id}`, { ...send, regenerate: true });
      cost += costOf(events);
      expect(textOf(events)).not.toBe('');
      facts.regenerated = before !== textOf(events) || facts.regenerated;
    }
    const text = textOf(events);
    const done = events.find((e) => e.type === 'done') as { turnId?: string } | undefined;
    const userPart = events.find((e) => e.type === 'user') as Extract<StreamEvent, { type: 'user' }> | undefined;
    const before = await storyText(user, storyKey);
    await ok(`/api/llm/${id}/accept`, user, {
      userContent: userPart?.text ?? '',
      newContent: text,
      turnId: done?.turnId ?? userPart?.turnId,
    } satisfies AcceptTurnDto);
    const after = await storyText(user, storyKey);
    expect(after.startsWith(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
    return { added: after.slice(before.length), cost };
  }

  // Accepting a turn draws its picture in the background (the camera is on by default): wait for every
  // picture to be drawn, so reads before a stop and after it see the same settled state.
  async function quiet(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (const { owner, id } of stories.values()) {
      for (;;) {
        const { pictures } = (await ok(`/api/llm/${id}/pictures`, owner)).data as { pictures: { status: string }[] };
        if (!pictures.some((p) => p.status === 'pending')) break;
        if (Date.now() > deadline) throw new Error(`pictures still drawing after 30 s in story ${id}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  // What the user's pictures cost so far, and what their authors earned from them (10 %, rounded down).
  async function pictureSpend(user: string): Promise<{ cost: number; royalties: number }> {
    let cost = 0;
    let royalties = 0;
    for (const { owner, id } of stories.values()) {
      if (owner !== user) continue;
      const { pictures } = (await ok(`/api/llm/${id}/pictures`, owner)).data as { pictures: { cost: number }[] };
      for (const p of pictures) {
        cost += p.cost;
        royalties += Math.floor((p.cost * 10) / 100);
      }
    }
    return { cost, royalties };
  }

  /** Runs `spend` and checks the user paid exactly what its generations and pictures cost, once. */
  async function chargedExactly(user: string, spend: () => Promise<number>): Promise<void> {
    await quiet();
    const [before, picturesBefore] = [await points(user), await pictureSpend(user)];
    const generations = await spend();
    await quiet();
    const pictures = (await pictureSpend(user)).cost - picturesBefore.cost;
    expect(generations).toBeGreaterThan(0);
    expect(await points(user)).toBe(before - generations - pictures);
  }

  async function storyText(user: string, storyKey: string): Promise<string> {
    const body = await ok(`/api/llm?id=${stories.get(storyKey)!.id}`, user);
    return (body.data as { main_text: string }).main_text;
  }

  async function signUp(name: string, inviteCode?: string): Promise<User> {
    const res = await post('/api/user/login', undefined, { type: 'username', userName: name, password: PASSWORD, ...(inviteCode ? { inviteCode } : {}) } satisfies LoginDto);
    expect(res.status).toBe(200);
    const data = res.body.data as { token: string; userInfo: { userID: string } };
    const user = { name, token: data.token, userID: data.userInfo.userID };
    users.set(name, user);
    return user;
  }

  async function createStory(user: string, key: string, body: Partial<CreateStoryDto> = {}): Promise<string> {
    const created = await ok('/api/llm', user, {
      name: `${key} tale`,
      prologue_and_characters: `The lighthouse keeper of ${key} counts the ships.\nA storm is coming.`,
      ...body,
    } satisfies CreateStoryDto);
    const id = (created.data as { id: string }).id;
    stories.set(key, { owner: user, id });
    return id;
  }

  const points = async (user: string) => ((await ok('/api/user/user-info', user)).data as { points: number }).points;

  // --- What every user can read ------------------------------------------------------------------
  async function readEverything(): Promise<Record<string, unknown>> {
    const seen: Record<string, unknown> = {};
    for (const [name] of users) {
      seen[`${name} user-info`] = (await ok('/api/user/user-info', name)).data;
      seen[`${name} points record`] = (await ok('/api/user/user-points?pageSize=50', name)).data;
      seen[`${name} check-in`] = (await ok('/api/user/check-in-status', name)).data;
      seen[`${name} stories`] = (await ok('/api/user/story-list?pageSize=50', name)).data;
      // A model's status is measured per running process (recent latency and errors), not stored.
      seen[`${name} custom models`] = ((await ok('/api/custom-models', name)).data as object[]).map(({ status: _status, ...m }: { status?: number }) => m);
    }
    seen.square = (await ok('/api/user/story-list?public=true&pageSize=50', 'alice')).data;
    for (const [key, { owner, id }] of stories) {
      seen[`story ${key}`] = (await ok(`/api/llm?id=${id}`, owner)).data;
      // retryAfterMs counts down the one-send-per-second rule: it depends on when it is read.
      const { retryAfterMs: _wait, ...pending } = (await ok(`/api/llm/${id}/pending`, owner)).data as { retryAfterMs?: number };
      seen[`story ${key} pending`] = pending;
      seen[`story ${key} archives`] = (await ok(`/api/archive/${id}`, owner)).data;
      seen[`story ${key} pictures`] = (await ok(`/api/llm/${id}/pictures`, owner)).data;
      seen[`story ${key} tasks`] = (await ok(`/api/tasks?story_id=${id}`, owner)).data;
      seen[`story ${key} branches`] = (await ok(`/api/llm/${id}/branches`, owner)).data;
      seen[`story ${key} lore`] = (await ok(`/api/lore/${id}`, owner)).data;
      seen[`story ${key} context`] = (await ok(`/api/llm/${id}/context`, owner)).data;
    }
    // Every picture file a story shows, read by the story's owner.
    for (const [key, { owner, id }] of stories) {
      const { pictures } = (await ok(`/api/llm/${id}/pictures`, owner)).data as { pictures: { fileId: string | null; status: string }[] };
      for (const p of pictures) {
        if (p.status !== 'ready') continue;
        const res = await get(`/api/images/${p.fileId}`, owner);
        expect({ story: key, picture: p.fileId, status: res.status }).toEqual({ story: key, picture: p.fileId, status: 200 });
        seen[`image ${p.fileId}`] = createHash('sha256').update(res.bytes!).digest('hex');
      }
    }
    return seen;
  }

  // --- The steps ---------------------------------------------------------------------------------
  // `prober`: whose data the probe works on; probes of different users run side by side.
  const steps: { name: string; run: () => Promise<void>; prober: string; probe: () => Promise<void> }[] = [
    {
      name: 'sign up',
      run: async () => {
        // pat and quinn are the probes' users: after each restart they use what they made before it.
        for (const name of ['alice', 'bob', 'pat', 'quinn']) await signUp(name);
      },
      prober: 'login',
      probe: async () => {
        // Sign-in is limited per client address (30 a minute): one user a restart, in turn.
        const names = [...users.keys()];
        const name = names[restarts % names.length];
        const res = await post('/api/user/login', undefined, { type: 'username', userName: name, password: PASSWORD } satisfies LoginDto);
        expect(res.status).toBe(200);
        users.get(name)!.token = (res.body.data as { token: string }).token;
        if (restarts % 4 === 0) await expect(signUp(`newcomer${restarts}`)).resolves.toBeTruthy();
      },
    },
    {
      name: 'check in',
      run: async () => {
        for (const name of ['alice', 'bob', 'pat', 'quinn']) {
          const body = await ok('/api/user/check-in', name, {});
          expect((body.data as { awarded: number }).awarded).toBeGreaterThan(0);
        }
      },
      prober: 'alice',
      probe: async () => {
        const again = await post('/api/user/check-in', 'alice', {});
        expect([again.status, again.body.code]).toEqual([409, 'ALREADY_CHECKED_IN']);
        expect((await ok('/api/user/check-in-status', 'alice')).data).toEqual({ dailyCheckinStatus: true });
      },
    },
    {
      name: 'create stories',
      run: async () => {
        await createStory('alice', 'main');
        await createStory('pat', 'probe');
        await createStory('quinn', 'probe2');
      },
      prober: 'pat',
      probe: async () => {
        const id = await createStory('pat', `scratch${restarts}`);
        expect(((await ok(`/api/user/check-story/${id}`, 'pat')).data as object)).toBeTruthy();
      },
    },
    {
      name: 'play and accept',
      run: async () => {
        await chargedExactly('alice', async () => {
          const { added, cost } = await playTurn('alice', 'main', { role: 'Keeper', content: 'I light the lamp.' });
          expect(added).toContain('I light the lamp.');
          return cost;
        });
      },
      prober: 'pat',
      probe: async () => void (await playTurn('pat', 'probe', { content: `Turn after restart ${restarts}.` })),
    },
    {
      name: 'regenerate',
      run: async () => {
        // Three generations, each charged once.
        await chargedExactly('alice', async () => (await playTurn('alice', 'main', { content: 'The ship turns.' }, 2)).cost);
      },
      prober: 'pat',
      probe: async () => void (await playTurn('pat', 'probe', { content: 'Again.' }, 1)),
    },
    {
      name: 'add lore, mention it, see it fire in the inspector',
      run: async () => {
        const id = stories.get('main')!.id;
        await ok(`/api/lore/${id}/entries`, 'alice', {
          title: 'Ashford Keep',
          keys: ['Ashford'],
          content: 'Ashford Keep guards the northern pass; its gate opens only at dawn.',
        } satisfies CreateLoreEntryDto);
        await chargedExactly('alice', async () => (await playTurn('alice', 'main', { content: 'We ride for Ashford before the storm.' })).cost);
        expect(firedTitles((await ok(`/api/llm/${id}/context`, 'alice')).data as PromptContextData)).toEqual(['Ashford Keep']);
      },
      prober: 'quinn',
      probe: async () => {
        // Every restart: the entry written before it is changed (a write conditional on the lore's stored
        // version), one more is added, and a send that mentions both keywords fires both.
        const id = stories.get('probe2')!.id;
        let lore = (await ok(`/api/lore/${id}`, 'quinn')).data as LoreBookData;
        if (!lore.entries.length) {
          lore = (await ok(`/api/lore/${id}/entries`, 'quinn', { title: 'Gull Rock', keys: ['gull'], content: 'Gull Rock is where ships break.' } satisfies CreateLoreEntryDto)).data as LoreBookData;
        }
        const first = lore.entries[0];
        const changed = (await ok(`/api/lore/${id}/entries/${first.id}`, 'quinn', { content: `Gull Rock is where ships break (restart ${restarts}).` } satisfies UpdateLoreEntryDto, 'PATCH')).data as LoreBookData;
        expect(changed.version).toBeGreaterThan(lore.version);
        const title = `Beacon ${restarts}`;
        await ok(`/api/lore/${id}/entries`, 'quinn', { title, keys: [`beacon${restarts}`], content: `Beacon ${restarts} burns green.` } satisfies CreateLoreEntryDto);
        await playTurn('quinn', 'probe2', { content: `Past the gull rock to beacon${restarts}.` });
        const context = (await ok(`/api/llm/${id}/context`, 'quinn')).data as PromptContextData;
        expect(firedTitles(context)).toEqual(expect.arrayContaining(['Gull Rock', title]));
        expect(JSON.stringify(context)).toContain(`(restart ${restarts})`);
      },
    },
    {
      name: 'branch from an earlier passage, play the branch, switch back',
      run: async () => {
        const id = stories.get('main')!.id;
        const original = await storyText('alice', 'main');
        const at = original.indexOf('\n');
        const forked = (await ok(`/api/llm/${id}/branches`, 'alice', { at, from_branch: id } satisfies CreateBranchDto)).data as BranchSwitchData;
        expect(forked.story.main_text).toBe(original.slice(0, at));
        await chargedExactly('alice', async () => (await playTurn('alice', 'main', { content: 'We take the other road.' }, 1)).cost);
        facts.branchText = await storyText('alice', 'main');
        facts.branchId = forked.current;
        await ok(`/api/llm/${id}/branches/${id}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(original);
      },
      prober: 'alice',
      probe: async () => {
        // The branch made before all the restarts since still plays its own text; a new one can be made.
        const id = stories.get('main')!.id;
        const onMain = await storyText('alice', 'main');
        await ok(`/api/llm/${id}/branches/${facts.branchId as string}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(facts.branchText);
        await ok(`/api/llm/${id}/branches/${id}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(onMain);
        const made = (await ok(`/api/llm/${id}/branches`, 'alice', { at: onMain.indexOf('\n') } satisfies CreateBranchDto)).data as BranchSwitchData;
        expect(made.story.main_text).toBe(onMain.slice(0, onMain.indexOf('\n')));
        await ok(`/api/llm/${id}/branches/${id}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(onMain);
        expect(((await ok(`/api/llm/${id}/branches`, 'alice')).data as BranchesData).current).toBe(id);
      },
    },
    {
      name: 'save and load an archive',
      run: async () => {
        const id = stories.get('main')!.id;
        const saved = await storyText('alice', 'main');
        await ok('/api/archive/save', 'alice', { story_id: id, archive_index: 3 } satisfies SaveArchiveDto);
        await ok(`/api/llm?id=${id}`, 'alice', { main_text: `${saved}\nA line that the archive does not have.` } satisfies UpdateStoryDto, 'PATCH');
        const [entry] = (await ok(`/api/archive/${id}`, 'alice')).data as { _id: string; archive_index: number }[];
        expect(entry.archive_index).toBe(3);
        const loaded = (await ok('/api/archive/load', 'alice', { archive_id: entry._id } satisfies LoadArchiveDto)).data as { story_id: string };
        expect(loaded.story_id).toBe(id);
        expect(await storyText('alice', 'main')).toBe(saved);
      },
      prober: 'quinn',
      probe: async () => {
        // A save made before all the restarts since still loads exactly what it saved; a new save works.
        const id = stories.get('probe2')!.id;
        if (facts.firstProbeSave === undefined) {
          await ok('/api/archive/save', 'quinn', { story_id: id, archive_index: 10 } satisfies SaveArchiveDto);
          facts.firstProbeSave = await storyText('quinn', 'probe2');
          return;
        }
        const entries = (await ok(`/api/archive/${id}`, 'quinn')).data as { _id: string; archive_index: number }[];
        const first = entries.find((e) => e.archive_index === 10)!;
        const loaded = (await ok('/api/archive/load', 'quinn', { archive_id: first._id } satisfies LoadArchiveDto)).data as { story_id: string };
        expect(loaded.story_id).toBe(id);
        expect(await storyText('quinn', 'probe2')).toBe(facts.firstProbeSave);
        await ok('/api/archive/save', 'quinn', { story_id: id, archive_index: 10 + restarts } satisfies SaveArchiveDto);
      },
    },
    {
      name: 'add a custom model and play with it',
      run: async () => {
        await ok('/api/custom-models', 'alice', {
          model_name: 'my-local',
          base_url: `${stub.baseURL}`,
          api_key: 'sk-journey-secret-key',
          model_type: 'compatible_openai',
        } satisfies CreateCustomModelDto);
        const asked = stub.requests;
        const { added, cost } = await playTurn('alice', 'main', { content: 'Ask my own model.', model_type: 'compatible_openai', model_name: 'my-local' });
        expect(added).toContain('The lamp flickered');
        expect(cost).toBe(0);
        expect(stub.requests).toBe(asked + 1);
      },
      // The key encrypted before the restarts still decrypts: the provider (which wants that key) answers.
      prober: 'alice',
      probe: async () => {
        const asked = stub.requests;
        await playTurn('alice', 'main', { content: `Own model after restart ${restarts}.`, model_type: 'compatible_openai', model_name: 'my-local' });
        expect(stub.requests).toBe(asked + 1);
      },
    },
    {
      name: 'draw a picture',
      run: async () => {
        await quiet();
        const before = await points('alice');
        const text = await storyText('alice', 'main');
        await drawPicture('alice', 'main', 0, Math.min(60, text.length));
        expect(await points('alice')).toBe(before - PICTURE_POINTS);
      },
      prober: 'quinn',
      probe: async () => {
        const text = await storyText('quinn', 'probe2');
        await drawPicture('quinn', 'probe2', 0, Math.min(30 + restarts, text.length));
      },
    },
    {
      name: 'create and score a task',
      run: async () => {
        const id = stories.get('main')!.id;
        const events = await stream('alice', `/api/tasks/${id}/create`, {});
        const suggestions = events.find((e) => e.type === 'task_suggestions') as { suggestions: { batch: string } };
        await ok(`/api/tasks/${id}/add_new`, 'alice', { batch: suggestions.suggestions.batch, index: 0 } satisfies AddTaskGroupDto);
        await playTurn('alice', 'main', { content: 'I search the lighthouse for the key.' });
        const scored = await stream('alice', `/api/tasks/${id}/0/score`, {});
        expect(scored.some((e) => e.type === 'task_scored')).toBe(true);
        const info = (await ok(`/api/tasks?story_id=${id}`, 'alice')).data as { tasks_list: { tasks_scored_at_turn: number | null }[] };
        expect(info.tasks_list[0].tasks_scored_at_turn).not.toBeNull();
      },
      prober: 'quinn',
      probe: async () => {
        const id = stories.get('probe2')!.id;
        const events = await stream('quinn', `/api/tasks/${id}/create`, {});
        expect(events.some((e) => e.type === 'task_suggestions')).toBe(true);
      },
    },
    {
      name: 'publish',
      run: async () => {
        await ok(`/api/user/public/${stories.get('main')!.id}`, 'alice', {});
        const square = (await ok('/api/user/story-list?public=true', 'bob')).data as { list: { userID: string }[] };
        expect(square.list.some((s) => s.userID === users.get('alice')!.userID)).toBe(true);
      },
      prober: 'pat',
      probe: async () => {
        const square = (await ok('/api/user/story-list?public=true', 'pat')).data as { list: { userID: string }[] };
        expect(square.list.some((s) => s.userID === users.get('alice')!.userID)).toBe(true);
      },
    },
    {
      name: 'clone from a second user, who plays it (royalties)',
      run: async () => {
        await quiet();
        const aliceBefore = await points('alice');
        const cloned = (await ok('/api/user/clone-public-story', 'bob', { userID: users.get('alice')!.userID, storyID: stories.get('main')!.id } satisfies ClonePublicStoryDto)).data as { id: string };
        stories.set('clone', { owner: 'bob', id: cloned.id });
        const bobPictures = await pictureSpend('bob');
        let generation = 0;
        // 10 % (rounded down) of what others spend on a clone of a public story goes to its author: bob
        // plays until he has spent at least 10 (a turn's cost follows the demo model's varying length).
        await chargedExactly('bob', async () => {
          for (let turn = 0; turn < 5 && generation < 10; turn++) generation += (await playTurn('bob', 'clone', { content: `I take the keeper's place (${turn}).` })).cost;
          return generation;
        });
        expect(generation).toBeGreaterThanOrEqual(10);
        const pictureRoyalties = (await pictureSpend('bob')).royalties - bobPictures.royalties;
        expect(await points('alice')).toBe(aliceBefore + Math.floor((generation * 10) / 100) + pictureRoyalties);
      },
      prober: 'pat',
      probe: async () => {
        const cloned = (await ok('/api/user/clone-public-story', 'pat', { userID: users.get('alice')!.userID, storyID: stories.get('main')!.id } satisfies ClonePublicStoryDto)).data as { id: string };
        stories.set(`pat clone ${restarts}`, { owner: 'pat', id: cloned.id });
      },
    },
    {
      name: 'export',
      run: async () => {
        const text = await storyText('alice', 'main');
        for (const format of ['txt', 'docx'] as const) {
          const res = await call('POST', '/api/export', 'alice', { content: text, format, name: 'main tale', story_id: stories.get('main')!.id } satisfies ExportDto);
          expect(res.status).toBe(200);
          expect(res.bytes!.length).toBeGreaterThan(100);
          if (format === 'txt') expect(res.bytes!.toString('utf8')).toContain('I light the lamp.');
        }
      },
      prober: 'alice',
      probe: async () => {
        const res = await call('POST', '/api/export', 'alice', { content: await storyText('alice', 'main'), format: 'html', story_id: stories.get('main')!.id } satisfies ExportDto);
        expect(res.status).toBe(200);
      },
    },
    {
      name: 'invite',
      run: async () => {
        const code = ((await ok('/api/user/invite-code', 'alice', {})) as { short?: string; data?: { short?: string } });
        const short = code.short ?? code.data?.short;
        expect(short).toMatch(/^\w+$/);
        facts.inviteCode = short;
        // The invitation is kept with the new account (its reward waits for a verified phone).
        await signUp('carol', short as string);
      },
      prober: 'alice',
      probe: async () => {
        const code = (await ok('/api/user/invite-code', 'alice', {})) as { short?: string; data?: { short?: string } };
        expect(code.short ?? code.data?.short).toBe(facts.inviteCode);
      },
    },
    {
      name: 'change settings',
      run: async () => {
        const id = stories.get('main')!.id;
        await ok(`/api/llm?id=${id}`, 'alice', {
          settings_pic_size: '512*768',
          settings_system_prompt_switch: 'custom',
          settings_system_prompt_text: 'Write like a sailor.',
          author_remark: 'Keep it short.',
          play_mode: 'fly_free',
        } satisfies UpdateStoryDto, 'PATCH');
        const story = (await ok(`/api/llm?id=${id}`, 'alice')).data as Record<string, unknown>;
        expect(story).toMatchObject({ settings_pic_size: '512*768', settings_system_prompt_text: 'Write like a sailor.', author_remark: 'Keep it short.' });
      },
      prober: 'pat',
      probe: async () => {
        const id = stories.get('probe')!.id;
        await ok(`/api/llm?id=${id}`, 'pat', { author_remark: `restart ${restarts}` } satisfies UpdateStoryDto, 'PATCH');
        expect(((await ok(`/api/llm?id=${id}`, 'pat')).data as { author_remark: string }).author_remark).toBe(`restart ${restarts}`);
      },
    },
  ];

  /** The titles of the lore entries a prompt carried (the inspector's lore parts). */
  const firedTitles = (context: PromptContextData): string[] =>
    context.messages.flatMap((m) => m.parts.flatMap((p) => (p.kind === 'lore' && p.lore ? [p.lore.title] : [])));

  async function drawPicture(user: string, storyKey: string, from: number, to: number): Promise<void> {
    const id = stories.get(storyKey)!.id;
    const res = await post(`/api/llm/${id}/pictures`, user, { from, to } satisfies RequestPictureDto);
    expect(res.status).toBe(202);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { pictures } = (await ok(`/api/llm/${id}/pictures`, user)).data as { pictures: { status: string; fileId: string | null; from: number; to: number }[] };
      const mine = pictures.filter((p) => p.from === from && p.to === to);
      if (mine.length && mine.every((p) => p.status === 'ready')) {
        return;
      }
      if (mine.some((p) => p.status === 'failed')) throw new Error(`the picture failed: ${JSON.stringify(mine)}`);
      if (Date.now() > deadline) throw new Error(`the picture was not drawn in 30 s: ${JSON.stringify(mine)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  beforeAll(async () => {
    ensureBuilt();
    stub = await startOpenAIStub({ requireKey: 'sk-journey-secret-key' });
    app = await startAppProcess({ ...env(), LOG_LEVEL: 'info' });
  }, STEP_TIMEOUT);

  it('starts with one line saying which database runs and why, and no stack traces', () => {
    const lines = app!.output.split('\n').filter(Boolean);
    const database = lines.filter((l) => l.startsWith('Database: '));
    expect(database).toHaveLength(1);
    if (mongodbUri) return expect(database[0]).toMatch(/^Database: MongoDB at /);
    expect(database[0]).toMatch(/^Database: embedded (stand-in \(CongoDB, offline\), data in .+, because .+|MongoDB \(mongodb-memory-server, a real mongod\), data in .+)$/);
    expect(lines.findIndex((l) => l.startsWith('TaleLoom is running at'))).toBeGreaterThan(lines.indexOf(database[0]));
    // No mongodb-memory-server download stack, no debug lines of the stand-in's package, no Nest boot chatter.
    expect(app!.output).not.toMatch(/DownloadError|MongoBinary|svDb|InstanceLoader|RouterExplorer|^\s+at /m);
  });

  (mongodbUri ? it.skip : it)('a second app on the same DATA_DIR is refused with one sentence, and the first keeps running', async () => {
    await expect(startAppProcess(env())).rejects.toThrow(/The data folder .+ is in use by process \d+ .+: stop it first/);
    expect((await get('/api/health')).status).toBe(200);
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await app?.stop();
    await stub?.close();
  });

  async function restart(): Promise<void> {
    restarts++;
    const graceful = restarts % 2 === 1;
    if (graceful) await app!.stop();
    else await app!.kill();
    // While it is stopped: every balance equals the sum of its ledger, no hold is stray, every counter adds up.
    const verify = await verifyLedgerCommand(mongodbUri ?? { DATA_DIR: dataDir });
    expect({ status: verify.status, out: verify.stdout.trim().split('\n').slice(-3), err: verify.stderr }).toEqual({
      status: 0,
      out: [
        'No drift: every balance equals the sum of its ledger.',
        'No stray hold: every open hold belongs to a running action.',
        "No counter drift: the square's counters equal their records.",
      ],
      err: '',
    });
    app = await startAppProcess(env());
  }

  for (const [i, step] of steps.entries()) {
    it(`${i + 1}. ${step.name}, then ${i % 2 === 0 ? 'SIGTERM' : 'SIGKILL'} and start again: all read back, all earlier steps still work`, async () => {
      await step.run();
      probes.push({ step: step.name, prober: step.prober, run: step.probe });
      await quiet();
      const before = await readEverything();
      await restart();
      expect(await readEverything()).toEqual(before);
      const byProber = new Map<string, typeof probes>();
      for (const probe of probes) byProber.set(probe.prober, [...(byProber.get(probe.prober) ?? []), probe]);
      await Promise.all(
        [...byProber.values()].map(async (mine) => {
          for (const probe of mine) {
            try {
              await probe.run();
            } catch (error) {
              throw new Error(`after restart ${restarts} (${restarts % 2 ? 'SIGTERM' : 'SIGKILL'}), "${probe.step}" no longer works: ${(error as Error).message}`);
            }
          }
        }),
      );
    }, 180_000);
  }

  it('a regenerate added a take that differs at least once (the demo model varies its prose)', () => {
    expect(facts.regenerated).toBe(true);
  });
});

function databaseNamed(uri: string, name: string): string {
  const url = new URL(uri);
  url.pathname = `/${name}`;
  return url.toString();
}
