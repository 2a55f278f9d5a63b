import type { AcceptTurnDto, CreateStoryDto, LoginDto, PromptContextData, RequestPictureDto, SendTurnDto, StreamEvent } from '@taleloom/contracts';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess } from './app-process';
import { startOpenAIStub, type OpenAIStub } from './openai-stub';
import { postEvents, textOf } from './play-helpers';

// A user's journey on the embedded default exactly as `pnpm start` runs it (the built dist/main.js, a
// fresh DATA_DIR, no MONGODB_URI: the on-disk embedded database), stopped and started again between
// every two steps, alternately with SIGTERM (Ctrl+C) and SIGKILL (a crash). After each restart:
// - everything every user can read is read back exactly as it was before the stop;
// - the step just taken still works (its probe), and after the last SIGTERM and the last SIGKILL every
//   earlier step does too (every probe runs again, on data written before the restarts);
// - while the app is stopped, `verify:ledger` on DATA_DIR finds every balance equal to its ledger.
// Generation costs power (demo model, pictures) so holds, settlements and royalties are on disk too.
// The journeys (test/restart-journey-*.e2e-spec.ts) each run on a data folder and app of their own, in
// parallel workers; this is what they share.

export const DEMO_POINTS = 100;
export const PICTURE_POINTS = 10;
export const PASSWORD = 'secret1';
export const STEP_TIMEOUT = 60_000;

export interface JourneyUser {
  name: string;
  token: string;
  userID: string;
}

type Json = Record<string, unknown> & { data?: unknown };

/** One step of a journey; `prober`: whose data its probe works on (probes of different users run side by side). */
export interface JourneyStep {
  name: string;
  run: () => Promise<void>;
  prober: string;
  probe: () => Promise<void>;
}

/** The titles of the lore entries a prompt carried (the inspector's lore parts). */
export const firedTitles = (context: PromptContextData): string[] =>
  context.messages.flatMap((m) => m.parts.flatMap((p) => (p.kind === 'lore' && p.lore ? [p.lore.title] : [])));

export type RestartJourney = ReturnType<typeof restartJourney>;

/** A journey's state and helpers; call `start` in its describe, then `steps`. `name` tells its databases apart. */
export function restartJourney(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `taleloom-journey-${name}-`));
  let app: AppProcess | undefined;
  let stub: OpenAIStub;
  let restarts = 0;
  const users = new Map<string, JourneyUser>();
  const stories = new Map<string, { owner: string; id: string }>();
  const lastSend = new Map<string, number>();
  const probes: { step: string; prober: string; run: () => Promise<void> }[] = [];
  const facts: Record<string, unknown> = {};

  // With TEST_MONGODB_URI (a real MongoDB) the same journey runs on it: only the app restarts.
  const mongodbUri = process.env.TEST_MONGODB_URI ? databaseNamed(process.env.TEST_MONGODB_URI, `journey_${name}_${Date.now()}`) : undefined;
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

  async function signUp(name: string, inviteCode?: string): Promise<JourneyUser> {
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

  /** Starts the stub provider and the app (then `setup`, not a step: what the journey's steps build on). */
  function start(setup?: () => Promise<void>): void {
    beforeAll(async () => {
      ensureBuilt();
      stub = await startOpenAIStub({ requireKey: 'sk-journey-secret-key' });
      app = await startAppProcess({ ...env(), LOG_LEVEL: 'info' });
    }, STEP_TIMEOUT);
    if (setup) beforeAll(setup, STEP_TIMEOUT);

    afterAll(async () => {
      await app?.stop();
      await stub?.close();
    });
  }

  /**
   * The users and stories the accounts journey builds and proves across restarts, set up once (not
   * steps) for a journey whose steps use them: alice, pat and quinn, checked in, with the stories
   * `main`, `probe` and `probe2`.
   */
  async function seedPlayers(): Promise<void> {
    for (const name of ['alice', 'pat', 'quinn']) {
      await signUp(name);
      await ok('/api/user/check-in', name, {});
    }
    await createStory('alice', 'main');
    await createStory('pat', 'probe');
    await createStory('quinn', 'probe2');
  }

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


  /**
   * One test a step: run it, restart (SIGTERM and SIGKILL in turn), read everything back, run its probe.
   * After each of the last two restarts (one SIGTERM, one SIGKILL) every step's probe runs again, on data
   * written before all the restarts: each earlier step is proven to survive both kinds of stop with
   * everything that came after it, once each, not after every restart (that grew with the square of the
   * steps).
   */
  function steps(list: JourneyStep[]): void {
    for (const [i, step] of list.entries()) {
      const all = i >= list.length - 2;
      it(`${i + 1}. ${step.name}, then ${i % 2 === 0 ? 'SIGTERM' : 'SIGKILL'} and start again: all read back, ${all ? 'every step so far still works' : 'it still works'}`, async () => {
        await step.run();
        probes.push({ step: step.name, prober: step.prober, run: step.probe });
        await quiet();
        const before = await readEverything();
        await restart();
        expect(await readEverything()).toEqual(before);
        const byProber = new Map<string, typeof probes>();
        for (const probe of all ? probes : probes.slice(-1)) byProber.set(probe.prober, [...(byProber.get(probe.prober) ?? []), probe]);
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
  }

  return {
    dataDir,
    mongodbUri,
    env,
    users,
    stories,
    facts,
    get app() {
      return app!;
    },
    get stub() {
      return stub;
    },
    get restarts() {
      return restarts;
    },
    call,
    get,
    post,
    ok,
    stream,
    playTurn,
    quiet,
    pictureSpend,
    chargedExactly,
    storyText,
    signUp,
    createStory,
    seedPlayers,
    points,
    readEverything,
    drawPicture,
    start,
    steps,
  };
}

function databaseNamed(uri: string, name: string): string {
  const url = new URL(uri);
  url.pathname = `/${name}`;
  return url.toString();
}
