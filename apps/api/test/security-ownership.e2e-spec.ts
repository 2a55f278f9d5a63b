import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { OWNERSHIP_TABLE, type Call, type World } from './security/ownership-table';
import { schemaOf } from './security/dto-schemas';
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

  beforeAll(async () => {
    t = await createTestApp({ DEMO_MODEL_CHUNK_DELAY_MS: '0' });
    owner = await signUp(t, 'owner');
    intruder = await signUp(t, 'intruder');
    routes = routeInventory(t.app);
  });
  afterAll(() => t.close());

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

  /** Fresh things of the owner for each case, so that a case cannot depend on another's leftovers. */
  async function makeWorld(): Promise<World> {
    const tag = Math.random().toString(36).slice(2, 10);
    const secret = `OWNER-SECRET-${tag}`;
    const draftSecret = `UNPUBLISHED-DRAFT-${tag}`;
    const privateStory = await createStory(t, owner, {
      name: `Private ${secret}`,
      prologue_and_characters: `Prologue ${secret}\nSecond line ${secret}`,
      goal: `Goal ${secret}`,
    });
    const publicStory = await createStory(t, owner, { name: 'Public tale', prologue_and_characters: 'A public prologue.\nIt ends.' });
    expect((await as(t, owner).post(`/api/user/public/${publicStory}`)).status).toBe(200);
    // Changed after publishing (text, notes, prompts): others must keep seeing the published version.
    const draft = {
      main_text: `Draft ${draftSecret}`,
      author_remark: `Note ${draftSecret}`,
      previous_summary: `Summary ${draftSecret}`,
      settings_system_prompt_text: `System ${draftSecret}`,
      settings_user_prompt_text: `User ${draftSecret}`,
      settings_camera_style_prompt_text: `Style ${draftSecret}`,
    };
    expect((await as(t, owner).patch(`/api/llm?id=${publicStory}`, draft)).status).toBe(200);
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
    return {
      ownerID: owner.userID, privateStory, publicStory, archiveId: saved.body.data._id, secret, draftSecret,
      tasksId: accepted.body.data.tasks_list[0].tasks_id as number, taskBatch,
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
      tasks: await read(`/api/tasks?story_id=${w.privateStory}`),
      mine: ((await read('/api/user/story-list?pageSize=50')) as { list: { id: string }[] }).list.map((s) => s.id).sort(),
    };
  }

  const cases = Object.entries(OWNERSHIP_TABLE).filter(([, e]) => e.access !== 'not-owned' && e.access !== 'tested-in');

  // Endpoints whose owner-side fixtures are their feature's own (a task group, a drawn picture, a custom
  // model): the named suite must exist and exercise the route with a second user.
  it.each(Object.entries(OWNERSHIP_TABLE).filter(([, e]) => e.access === 'tested-in'))('%s (in its feature suite)', (key, entry) => {
    if (entry.access !== 'tested-in') return;
    const source = readFileSync(join(__dirname, entry.suite), 'utf8');
    expect(source).toContain(entry.secondUser);
    expect(source).toContain(key.split(' ')[1].replace(/\/:[A-Za-z]+.*$/, '').replace(/^\/api/, '/api'));
  });

  it.each(cases)('%s', async (_key, entry) => {
    if (entry.access === 'not-owned' || entry.access === 'tested-in') return;
    const w = await makeWorld();
    const before = await ownerView(w);

    for (const c of entry.requests(w)) {
      const res = await call(intruder, c);
      expect({ call: `${c.method} ${c.url}`, status: res.status, code: res.body?.code }).toEqual({
        call: `${c.method} ${c.url}`,
        status: entry.expect.status,
        code: entry.expect.code,
      });
      expect(res.text).not.toContain(w.secret);
      expect(res.text).not.toContain(w.draftSecret);
    }

    // Nothing of the owner changed (before the allowed public calls, which may count a clone).
    expect(await ownerView(w)).toEqual(before);

    if (entry.access === 'public-read') {
      for (const c of entry.publicRequests(w)) {
        const res = await call(intruder, c);
        expect({ call: `${c.method} ${c.url}`, status: res.status }).toEqual({ call: `${c.method} ${c.url}`, status: expect.any(Number) });
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(300);
        expect(res.text).not.toContain(w.secret);
        expect(res.text).not.toContain(w.draftSecret);
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
