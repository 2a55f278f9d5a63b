import request, { type Response } from 'supertest';
import { PIC_SIZES } from '@taleloom/contracts';
import { PictureRunner } from '../src/pictures/picture.runner';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { OWNERSHIP_TABLE, type Call, type OwnershipEntry, type World } from './security/ownership-table';
import { schemaOf } from './security/dto-schemas';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { ID_FIELD, routeInventory, type RouteInfo } from './support/route-inventory';
import { createTestApp, type TestApp } from './test-app';

/**
 * Every endpoint that takes an id refuses a second user: the list of endpoints comes from the running
 * app's router, the expectations from security/ownership-table.ts (an uncovered endpoint fails here).
 */
describe('ownership: a second user never reaches the owner’s things', () => {
  let t: TestApp;
  let owner: TestUser;
  let intruder: TestUser;
  let routes: RouteInfo[];
  let images: OpenAIStub;
  let playedStory: string;

  beforeAll(async () => {
    // Pictures, so that the owner's stories have real ones to refuse: tiny ones from the local stub (the
    // demo generator paints for seconds, and every case draws three).
    images = await startOpenAIStub();
    t = await createTestApp({
      DEMO_MODEL_CHUNK_DELAY_MS: '0',
      IMAGES_PROVIDER: 'openai',
      IMAGES_BASE_URL: images.baseURL,
      IMAGES_MODEL: 'stub-image-1',
      IMAGES_SIZE_MAP: JSON.stringify(Object.fromEntries(PIC_SIZES.map((size) => [size, '16x16']))),
      // A custom model's address is checked on save: the owner's points at a loopback port.
      CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
    });
    owner = await signUp(t, 'owner');
    intruder = await signUp(t, 'intruder');
    routes = routeInventory(t.app);
    // A story of the owner with a finished turn (the demo model), whose stream its owner may rejoin; only read, so shared by every case.
    playedStory = await createStory(t, owner, { name: 'Played tale', prologue_and_characters: 'A lamp.' });
    expect((await as(t, owner).post(`/api/llm/${playedStory}`).send({ content: 'The lamp turns.' })).status).toBe(200);
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await images.close();
  });

  const drain = () => t.app.get(PictureRunner).drain();

  /** The routes that take an id: a path parameter, or an id-like field of their query or body DTO. */
  function idRoutes(): { route: RouteInfo; idFields: string[] }[] {
    return routes
      .map((route) => {
        const fields = [route.queryDto, route.bodyDto].flatMap((dto) => Object.keys(schemaOf(dto)?.properties ?? {}));
        return { route, idFields: [...route.params.map((p) => `:${p}`), ...fields.filter((f) => ID_FIELD.test(f))] };
      })
      .filter((r) => r.idFields.length > 0);
  }

  it('has a table entry for every endpoint that takes an id (found from the router), and no stale entry', () => {
    const found = idRoutes();
    expect(found.length).toBeGreaterThanOrEqual(15);
    const missing = found
      .filter(({ route }) => !OWNERSHIP_TABLE[route.key])
      .map(({ route, idFields }) => `${route.key} (id: ${idFields.join(', ')}; ${route.controller}.${route.handler})`);
    if (missing.length) {
      throw new Error(
        `These endpoints take an id but test/security/ownership-table.ts does not say who may use them:\n  ` +
          `${missing.join('\n  ')}\nAdd an entry for each (see the comment at the top of that file).`,
      );
    }
    const served = new Set(found.map((r) => r.route.key));
    expect(Object.keys(OWNERSHIP_TABLE).filter((key) => !served.has(key))).toEqual([]);
  });

  /** Draws a picture of the passage from..to of the owner's story and waits for it: its id. */
  async function drawPicture(story: string, from: number, to: number): Promise<string> {
    const asked = await as(t, owner).post(`/api/llm/${story}/pictures`, { from, to });
    expect(asked.status).toBe(202);
    await drain();
    const listed = await as(t, owner).get(`/api/llm/${story}/pictures`);
    const picture = (listed.body.data.pictures as { id: string; status: string; from: number; to: number }[]).find((p) => p.id === asked.body.data.id);
    expect(picture).toMatchObject({ status: 'ready', from, to });
    return picture!.id;
  }

  /** Fresh things of the owner, for a case that writes (or for the cases that only read, once: see worldFor). */
  async function makeWorld(): Promise<World> {
    // Pictures an earlier case started (an accepted turn is illustrated) finish first.
    await drain();
    const tag = Math.random().toString(36).slice(2, 10);
    const secret = `OWNER-SECRET-${tag}`;
    const draftSecret = `UNPUBLISHED-DRAFT-${tag}`;
    const privateText = `Prologue ${secret}\nSecond line ${secret}`;
    const privateStory = await createStory(t, owner, {
      name: `Private ${secret}`,
      prologue_and_characters: privateText,
      goal: `Goal ${secret}`,
    });
    const privatePicture = await drawPicture(privateStory, 0, privateText.length);
    const publicText = 'A public prologue.\nIt ends.';
    const publicStory = await createStory(t, owner, { name: 'Public tale', prologue_and_characters: publicText });
    // Drawn before publishing: the published version shows it.
    const publicPicture = await drawPicture(publicStory, 0, publicText.length);
    expect((await as(t, owner).post(`/api/user/public/${publicStory}`)).status).toBe(200);
    // Changed after publishing (text, notes, prompts): others must keep seeing the published version.
    const draftText = `${publicText}\nDraft ${draftSecret}`;
    const draft = {
      main_text: draftText,
      author_remark: `Note ${draftSecret}`,
      previous_summary: `Summary ${draftSecret}`,
      settings_system_prompt_text: `System ${draftSecret}`,
      settings_user_prompt_text: `User ${draftSecret}`,
      settings_camera_style_prompt_text: `Style ${draftSecret}`,
    };
    expect((await as(t, owner).patch(`/api/llm?id=${publicStory}`, draft)).status).toBe(200);
    // A picture of the draft's new passage: the owner's only, until the story is published again.
    const draftPicture = await drawPicture(publicStory, publicText.length + 1, draftText.length);
    // A lore entry of each story: the public story's written after publishing (its draft).
    const lore = async (id: string, content: string) => {
      const res = await as(t, owner).post(`/api/lore/${id}/entries`, { title: `Lore ${content}`, keys: ['Prologue'], content });
      expect(res.status).toBe(200);
      return res.body.data.entries.at(-1).id as string;
    };
    const privateLoreEntry = await lore(privateStory, `Lore ${secret}`);
    const publicLoreEntry = await lore(publicStory, `Lore ${draftSecret}`);
    const saved = await as(t, owner).post('/api/archive/save', { story_id: privateStory, archive_index: 3 });
    expect(saved.status).toBe(200);
    // A task group of the private story: the demo model's suggestions, the first accepted.
    const suggested = await as(t, owner).post(`/api/tasks/${privateStory}/create`);
    const stored = suggested.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; suggestions?: { batch: string } })
      .find((e) => e.type === 'task_suggestions');
    const taskBatch = stored!.suggestions!.batch;
    const accepted = await as(t, owner).post(`/api/tasks/${privateStory}/add_new`, { batch: taskBatch, index: 0 });
    expect(accepted.status).toBe(200);
    // A custom model (one per world: the owner has at most three, so the last world's is replaced).
    const customModel = `Owner-model-${tag}`;
    for (const m of (await as(t, owner).get('/api/custom-models')).body.data as { model_name: string }[]) {
      expect((await as(t, owner).delete(`/api/custom-models/${encodeURIComponent(m.model_name)}`)).status).toBe(200);
    }
    const created = await as(t, owner).post('/api/custom-models', {
      model_name: customModel, base_url: `http://127.0.0.1:9/${secret}/v1`, api_key: `sk-${secret}`, model_type: 'compatible_openai',
    });
    expect(created.status).toBe(201);
    // Two branches of the private story, from its first line; it plays its original line again.
    const branchOf = async () => {
      const forked = await as(t, owner).post(`/api/llm/${privateStory}/branches`, { at: privateText.indexOf('\n') });
      expect(forked.status).toBe(200);
      expect((await as(t, owner).post(`/api/llm/${privateStory}/branches/${privateStory}/play`)).status).toBe(200);
      return forked.body.data.current as string;
    };
    const privateBranch = await branchOf();
    const spareBranch = await branchOf();
    return {
      ownerID: owner.userID, privateStory, publicStory, archiveId: saved.body.data._id, secret, draftSecret,
      tasksId: accepted.body.data.tasks_list[0].tasks_id as number, taskBatch, customModel, privatePicture, publicPicture, draftPicture,
      privateLoreEntry, publicLoreEntry,
      privateBranch, spareBranch, playedStory,
    };
  }

  const call = (user: TestUser, c: Call) => {
    const req = request(t.app.getHttpServer())[c.method](c.url).set('Authorization', `Bearer ${user.token}`);
    return c.body ? req.send(c.body) : req;
  };

  /** Everything of the owner that an intruder's call could change, as the owner reads it. */
  async function ownerView(w: World) {
    const read = async (url: string) => {
      const res = await as(t, owner).get(url);
      expect(res.status).toBe(200);
      return res.body.data as unknown;
    };
    return {
      private: await read(`/api/llm?id=${w.privateStory}`),
      public: await read(`/api/llm?id=${w.publicStory}`),
      publicSummary: await read(`/api/user/story?id=${w.publicStory}`),
      archives: await read(`/api/archive/${w.privateStory}`),
      publicArchives: await read(`/api/archive/${w.publicStory}`),
      pending: await read(`/api/llm/${w.privateStory}/pending`),
      branches: await read(`/api/llm/${w.privateStory}/branches`),
      publicBranches: await read(`/api/llm/${w.publicStory}/branches`),
      tasks: await read(`/api/tasks?story_id=${w.privateStory}`),
      privatePictures: await read(`/api/llm/${w.privateStory}/pictures`),
      publicPictures: await read(`/api/llm/${w.publicStory}/pictures`),
      customModels: await read('/api/custom-models'),
      mine: ((await read('/api/user/story-list?pageSize=50')) as { list: { id: string }[] }).list.map((s) => s.id).sort(),
    };
  }

  const cases = Object.entries(OWNERSHIP_TABLE).filter(([, e]) => e.access !== 'not-owned');

  /** What an answer shows, whatever its type (a picture's bytes, an exported file, JSON). */
  const shown = (res: Response): string =>
    res.text ?? (Buffer.isBuffer(res.body) ? res.body.toString('latin1') : JSON.stringify(res.body ?? ''));

  /**
   * Cases whose calls (the intruder's, then the same by the owner) all only read share one world, built
   * once: none of them changes it for another, and each still compares the owner's things before and
   * after its own calls. A case with any other call builds a world of its own. A call's method does not
   * depend on the world, so a world of placeholders tells which case only reads.
   */
  const placeholders = new Proxy({}, { get: () => 'placeholder' }) as World;
  const onlyReads = (entry: OwnershipEntry) =>
    entry.access !== 'not-owned' &&
    [...entry.requests(placeholders), ...(entry.access === 'public-read' ? entry.publicRequests(placeholders) : [])].every((c) => c.method === 'get');
  let readWorld: Promise<World> | undefined;
  async function worldFor(entry: OwnershipEntry): Promise<World> {
    if (!onlyReads(entry)) return makeWorld();
    readWorld ??= makeWorld();
    const w = await readWorld;
    // Pictures an earlier case started finish first, as makeWorld waits for them.
    await drain();
    return w;
  }

  it.each(cases)('%s', async (_key, entry) => {
    if (entry.access === 'not-owned') return;
    const w = await worldFor(entry);
    const before = await ownerView(w);

    for (const c of entry.requests(w)) {
      const res = await call(intruder, c);
      expect({ call: `${c.method} ${c.url}`, status: res.status, code: res.body?.code }).toEqual({
        call: `${c.method} ${c.url}`,
        status: entry.expect.status,
        code: entry.expect.code,
      });
      expect(shown(res)).not.toContain(w.secret);
      expect(shown(res)).not.toContain(w.draftSecret);
    }

    // Nothing of the owner changed (before the allowed public calls, which may count a clone).
    expect(await ownerView(w)).toEqual(before);

    if (entry.access === 'public-read') {
      for (const c of entry.publicRequests(w)) {
        const res = await call(intruder, c);
        expect({ call: `${c.method} ${c.url}`, status: res.status }).toEqual({ call: `${c.method} ${c.url}`, status: expect.any(Number) });
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(300);
        expect(shown(res)).not.toContain(w.secret);
        expect(shown(res)).not.toContain(w.draftSecret);
        // A clone answers its new id: what it holds is the published version only.
        const cloneId = (res.body?.data as { id?: unknown } | undefined)?.id;
        if (typeof cloneId === 'string' && cloneId !== w.publicStory) {
          const clone = await as(t, intruder).get(`/api/llm?id=${cloneId}`);
          expect(clone.status).toBe(200);
          expect(clone.text).not.toContain(w.draftSecret);
        }
      }
    }

    // The same calls work for the owner: the fixture addresses real things, so the 404s above mean refusal.
    const ownerMay = entry.access === 'owner-only' || entry.ownerMay !== false;
    for (const c of ownerMay ? entry.requests(w) : []) {
      const res = await call(owner, c);
      expect({ call: `${c.method} ${c.url}`, ok: res.status >= 200 && res.status < 300, body: res.status < 300 ? null : res.body }).toEqual({
        call: `${c.method} ${c.url}`,
        ok: true,
        body: null,
      });
    }
  });
});
