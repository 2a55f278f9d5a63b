import { ErrorCode, LORE_BODY_LIMIT_BYTES, STORY_TEXT_BODY_LIMIT_BYTES } from '@taleloom/contracts';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { StoriesService } from '../src/stories/stories.service';
import { DOCUMENT_ONLY_HEADERS } from '../src/web/serve-web-app';
import { OPERATORS, validBody } from './security/arbitraries';
import { expectSubresourceHeaders } from './security/subresource-headers';
import { schemaOf } from './security/dto-schemas';
import { cleanErrorProblem, LEAK } from './security/error-shape';
import { inertHtmlProblems, XSS_PAYLOADS } from './security/inert-html';
import { createStory, signUp, type TestUser } from './story-factories';
import { routeInventory, verbOf, type RouteInfo } from './support/route-inventory';
import { createTestApp, type TestApp } from './test-app';

const BODY_LIMIT = 4096;
/** Endpoints that carry a whole story, with limits of their own (apps/api/src/app.factory.ts). */
const LARGER_LIMITS: Record<string, number> = {
  'POST /api/export': 16 * 1024 * 1024,
  'PATCH /api/llm': STORY_TEXT_BODY_LIMIT_BYTES,
  // A new story may carry its imported file's whole lore book; an import carries one.
  'POST /api/llm': LORE_BODY_LIMIT_BYTES,
  'POST /api/lore/:storyId/import': LORE_BODY_LIMIT_BYTES,
};

/**
 * Hostile input, generated over every endpoint from the router: NoSQL operator injection in bodies and
 * queries, oversize bodies, unreadable requests, internal errors (no stack trace ever leaves), security
 * headers on the API and on the served web app, and inert HTML export.
 */
describe('hostile input', () => {
  let t: TestApp;
  let user: TestUser;
  let routes: RouteInfo[];
  const http = () => request(t.app.getHttpServer());
  let storyId: string;
  // Ids are the story's; positions and numbers (a task group's index or tasks_id) are 1.
  const urlOf = (route: RouteInfo) => route.path.replace(/:(\w+)/g, (_, name: string) => (/^(index|groupId)$/.test(name) ? '1' : storyId));
  const authed = (route: RouteInfo, url = urlOf(route)) => http()[verbOf(route)](url).set('Authorization', `Bearer ${user.token}`);

  beforeAll(async () => {
    const web = mkdtempSync(join(tmpdir(), 'taleloom-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
    t = await createTestApp({ BODY_LIMIT_BYTES: String(BODY_LIMIT), WEB_DIST_DIR: web, DEMO_MODEL_CHUNK_DELAY_MS: '0' });
    user = await signUp(t, 'hostile');
    storyId = await createStory(t, user, { name: 'Target story', prologue_and_characters: 'Secret prologue.' });
    routes = routeInventory(t.app);
  });
  afterAll(() => t.close());

  const jsonBodyRoutes = () => routes.filter((r) => r.bodyDto && !r.upload);
  /** A body the route's DTO accepts, to put one hostile field into. */
  const baseline = (route: RouteInfo) => fc.sample(validBody(schemaOf(route.bodyDto)!), { seed: 7, numRuns: 1 })[0];

  describe('NoSQL operator injection', () => {
    it('an operator object or array in any field of any body is a 400 naming the field, and never reaches data', async () => {
      const wrong: string[] = [];
      let cases = 0;
      for (const route of jsonBodyRoutes()) {
        const fields = Object.keys(schemaOf(route.bodyDto)!.properties ?? {});
        expect(fields.length).toBeGreaterThan(0);
        for (const [i, field] of fields.entries()) {
          for (const value of [OPERATORS[i % OPERATORS.length], [OPERATORS[(i + 1) % OPERATORS.length]]]) {
            cases++;
            const res = await authed(route).send({ ...baseline(route), [field]: value });
            const named = (res.body.details ?? []).some((d: { field: string }) => d.field === field || d.field.startsWith(`${field}.`));
            if (res.status !== 400 || res.body.code !== ErrorCode.VALIDATION_FAILED || !named || 'data' in res.body) {
              wrong.push(`${route.key} ${field}=${JSON.stringify(value)}: ${res.status} ${res.body.code} ${JSON.stringify(res.body.details)}`);
            }
          }
        }
        const where = await authed(route).send({ ...baseline(route), $where: 'sleep(100) || true' });
        if (where.status !== 400 || where.body.code !== ErrorCode.VALIDATION_FAILED) wrong.push(`${route.key} $where: ${where.status}`);
      }
      expect(cases).toBeGreaterThan(60);
      expect(wrong).toEqual([]);
      // Hundreds of requests: on a busy 2-core machine this takes a while.
    }, 120_000);

    it('a login with operators signs nobody in, and a clone with operators clones nothing', async () => {
      await signUp(t, 'victim');
      for (const body of [
        { type: 'username', userName: { $gt: '' }, password: { $gt: '' } },
        { type: 'username', userName: 'victim', password: { $ne: null } },
        { type: 'phone', phoneNum: { $gt: '' }, countryCode: '86', verifyCode: { $ne: null } },
      ]) {
        const res = await http().post('/api/user/login').send(body);
        expect([res.status, res.body.code, res.body.data]).toEqual([400, ErrorCode.VALIDATION_FAILED, undefined]);
      }
      const before = (await authed(routes.find((r) => r.key === 'GET /api/user/story-list')!)).body.data.list.length;
      const clone = await http().post('/api/user/clone-public-story').set('Authorization', `Bearer ${user.token}`).send({ userID: { $ne: null }, storyID: { $ne: null } });
      expect([clone.status, clone.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
      expect((await http().get('/api/user/story-list').set('Authorization', `Bearer ${user.token}`)).body.data.list).toHaveLength(before);
    });

    it('bracket, repeated and operator keys in any query are a 400, and endpoints without a query ignore them', async () => {
      const wrong: string[] = [];
      for (const route of routes.filter((r) => r.queryDto)) {
        const fields = Object.keys(schemaOf(route.queryDto)!.properties ?? {});
        for (const field of fields) {
          for (const query of [`${field}[$ne]=x`, `${field}[$gt]=`, `${field}=a&${field}=b`, `${field}[]=a`]) {
            const res = await authed(route, `${urlOf(route)}?id=${storyId}&${query}`);
            if (res.status !== 400 || res.body.code !== ErrorCode.VALIDATION_FAILED) wrong.push(`${route.key}?${query}: ${res.status} ${res.body.code}`);
          }
        }
        const where = await authed(route, `${urlOf(route)}?id=${storyId}&$where=1`);
        if (where.status !== 400 || where.body.code !== ErrorCode.VALIDATION_FAILED) wrong.push(`${route.key}?$where=1: ${where.status}`);
      }
      // An endpoint that reads no query never sees one: the same answer as without it.
      for (const route of routes.filter((r) => !r.queryDto && r.method === 'GET')) {
        const plain = await authed(route);
        const res = await authed(route, `${urlOf(route)}?$where=1&id[$ne]=x&__proto__[x]=1`);
        if (res.status !== plain.status || res.status >= 500) wrong.push(`${route.key}?$where=1: ${res.status}, without the query ${plain.status}`);
      }
      expect(wrong).toEqual([]);
    });

    it('prototype-pollution keys are refused anywhere in a body, and pollute nothing', async () => {
      const login = routes.find((r) => r.key === 'POST /api/user/login')!;
      for (const raw of [
        '{"type":"username","userName":"pollute1","password":"secret1","__proto__":{"isAdmin":true}}',
        '{"type":"username","userName":"pollute1","password":"secret1","constructor":{"prototype":{"isAdmin":true}}}',
        '{"type":"username","userName":"pollute1","password":"secret1","inviteCode":{"__proto__":{"x":1}}}',
      ]) {
        const res = await http().post(login.path).set('Content-Type', 'application/json').send(raw);
        expect([res.status, res.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
      }
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      const deep = await http().post(login.path).set('Content-Type', 'application/json').send(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`);
      expect([deep.status, deep.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    });
  });

  describe('oversize and unreadable requests', () => {
    it(`a JSON body over BODY_LIMIT_BYTES is 413 PAYLOAD_TOO_LARGE on every endpoint that reads one`, async () => {
      const wrong: string[] = [];
      const big = JSON.stringify({ content: 'x'.repeat(BODY_LIMIT + 10) });
      for (const route of routes.filter((r) => r.method !== 'GET' && !r.upload && !LARGER_LIMITS[r.key])) {
        const res = await authed(route).set('Content-Type', 'application/json').send(big);
        if (res.status !== 413 || res.body.code !== ErrorCode.PAYLOAD_TOO_LARGE) wrong.push(`${route.key}: ${res.status} ${res.body.code}`);
        const form = await authed(route).set('Content-Type', 'application/x-www-form-urlencoded').send(`a=${'x'.repeat(BODY_LIMIT + 10)}`);
        if (form.status !== 413 || form.body.code !== ErrorCode.PAYLOAD_TOO_LARGE) wrong.push(`${route.key} (form): ${form.status} ${form.body.code}`);
      }
      expect(wrong).toEqual([]);
    });

    it.each(Object.entries(LARGER_LIMITS))('%s takes a whole story and refuses a body over %d bytes with 413', async (key, limit) => {
      const route = routes.find((r) => r.key === key)!;
      const res = await authed(route, route.path === '/api/llm' ? `/api/llm?id=${storyId}` : urlOf(route))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ content: 'x'.repeat(limit + 10), format: 'txt' }));
      expect([res.status, res.body.code]).toEqual([413, ErrorCode.PAYLOAD_TOO_LARGE]);
    });

    it('unknown encodings, broken gzip, too many form fields and undecodable URLs are coded 4xx, not 500', async () => {
      const login = () => http().post('/api/user/login');
      const cases: [string, () => request.Test, number, ErrorCode][] = [
        ['unknown Content-Encoding', () => login().set('Content-Type', 'application/json').set('Content-Encoding', 'bogus').send('{}'), 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
        ['unsupported charset', () => login().set('Content-Type', 'application/json; charset=no-such').send('{}'), 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
        ['gzip that is not gzip', () => login().set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('not gzip'), 400, ErrorCode.MALFORMED_REQUEST],
        ['too many form fields', () => login().set('Content-Type', 'application/x-www-form-urlencoded').send(Array.from({ length: 1200 }, (_, i) => `k${i}=1`).join('&')), 413, ErrorCode.PAYLOAD_TOO_LARGE],
        ['an undecodable path', () => http().get('/api/llm/%E0%A4%A/pending').set('Authorization', `Bearer ${user.token}`), 400, ErrorCode.MALFORMED_REQUEST],
      ];
      for (const [name, send, status, code] of cases) {
        const res = await send();
        expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status, code });
        expect(cleanErrorProblem(res)).toBeNull();
      }
      // A real gzip body is read (sent with fetch: superagent would serialise a Buffer as JSON).
      const server = t.app.getHttpServer();
      if (!server.listening) await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const zipped = await fetch(`http://127.0.0.1:${server.address().port}/api/user/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: gzipSync(JSON.stringify({ type: 'username', userName: 'zipped', password: 'secret1' })),
      });
      expect(zipped.status).toBe(200);
    });
  });

  describe('errors never carry a stack trace', () => {
    it('a bug in a handler answers 500 INTERNAL_ERROR and nothing of the error', async () => {
      const spy = vi.spyOn(StoriesService.prototype, 'list').mockRejectedValue(
        Object.assign(new TypeError("Cannot read properties of undefined (reading 'secretField') at /app/src/stories/x.ts:12:3"), { code: 'E_SECRET' }),
      );
      try {
        for (const lang of ['en', 'zh-CN']) {
          const res = await http().get('/api/user/story-list').set('Authorization', `Bearer ${user.token}`).set('Accept-Language', lang);
          expect(res.status).toBe(500);
          expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'status']);
          expect(res.body.code).toBe(ErrorCode.INTERNAL_ERROR);
          expect(res.text).not.toMatch(/secretField|E_SECRET|x\.ts/);
          expect(res.text).not.toMatch(LEAK);
        }
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('security headers', () => {
    const expectSecurityHeaders = (res: request.Response, what: string) => {
      const h = res.headers;
      const csp = h['content-security-policy'] ?? '';
      expect({ what, csp }).toEqual({ what, csp: expect.stringContaining("default-src 'self'") });
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      // Served over plain HTTP on a LAN address this would blank the page (every script fetched over HTTPS).
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(h['x-content-type-options']).toBe('nosniff');
      expect(h['x-frame-options']).toBe('DENY');
      expect(h['referrer-policy']).toBe('no-referrer');
      expect(h['strict-transport-security']).toMatch(/max-age=(\d{8,}|3[1-9]\d{6})/);
      expect(h['cross-origin-opener-policy']).toBe('same-origin');
      expect(h['x-powered-by']).toBeUndefined();
    };

    it('on API answers, errors included', async () => {
      expectSecurityHeaders(await http().get('/api/health'), 'health');
      expectSecurityHeaders(await http().get('/api/user/user-info'), '401');
      expectSecurityHeaders(await http().get('/api/no-such'), '404');
      expectSecurityHeaders(await http().post('/api/user/login').set('Content-Type', 'application/json').send('{'), '400');
    });

    it("on the served web app: index and client-side routes all of them, a hashed script a subresource's", async () => {
      for (const path of ['/', '/stories', '/play?id=1']) {
        const res = await http().get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expectSecurityHeaders(res, path);
      }
      const asset = await http().get('/assets/app.js');
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
      // A script is not a document: only the headers a subresource is judged by.
      expectSubresourceHeaders(asset.headers, '/assets/app.js');
    });
  });

  describe('HTML export is inert', () => {
    it('script, event handlers and javascript: links in the name and text come out as text (parsed with parse5)', async () => {
      const content = XSS_PAYLOADS.join('\n');
      const res = await http()
        .post('/api/export')
        .set('Authorization', `Bearer ${user.token}`)
        .send({ format: 'html', name: XSS_PAYLOADS[0], content })
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c.toString('utf8')));
          r.on('end', () => done(null, text));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const { problems, text, csp } = inertHtmlProblems(res.body as string);
      expect(problems).toEqual([]);
      expect(csp).toContain("default-src 'none'");
      for (const payload of XSS_PAYLOADS) expect(text).toContain(payload);
    });

    it('for any text and title (property, 300 runs): no active content, and the text survives word for word', async () => {
      const { exportHtml } = await import('../src/files/exporters/export-html');
      const piece = fc.oneof(
        fc.constantFrom(...XSS_PAYLOADS, '<', '>', '&', '"', "'", '`', '</', '<!--', '-->', ']]>', '<![CDATA[', '&lt;', '&#x3C;', '\u2028', '<svg/onload=alert(1)>', 'javascript:'),
        fc.string({ unit: 'grapheme', maxLength: 12 }),
      );
      // One line each (the exporter makes a paragraph per line); NUL and CR, which HTML parsing itself
      // drops or turns into line feeds, are left out of the comparison.
      const line = fc.array(piece, { maxLength: 8 }).map((p) => p.join('').replace(/[\r\n]/g, ' ').replaceAll('\u0000', ' '));
      await fc.assert(
        fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), line, (lines, title) => {
          const { problems, paragraphs, heading } = inertHtmlProblems(exportHtml(lines.join('\n'), title || 'Untitled', 'en'));
          expect(problems).toEqual([]);
          expect(heading).toBe(title || 'Untitled');
          expect(paragraphs).toEqual(lines.map((l) => (l.trim() ? l : '')));
        }),
        { seed: 20_240_611, numRuns: 300 },
      );
    });
  });
});

/** docker-compose serves the web app from nginx: it must send the same headers as the API. */
describe('the nginx of docker-compose', () => {
  const deploy = join(__dirname, '..', '..', '..', 'deploy');
  const directives = (csp: string) =>
    Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...sources]) => [name, sources.sort()]),
    );

  it("sends the API's security headers (as with Turnstile on) on every location that serves the web app", async () => {
    const api = await createTestApp({ CAPTCHA_PROVIDER: 'turnstile', TURNSTILE_SITE_KEY: 'site-key', TURNSTILE_SECRET_KEY: 'secret-key' });
    try {
      const res = await request(api.app.getHttpServer()).get('/api/health');
      const snippet = readFileSync(join(deploy, 'security-headers.conf'), 'utf8');
      const nginx = Object.fromEntries([...snippet.matchAll(/^add_header (\S+) "([^"]*)" always;$/gm)].map((m) => [m[1].toLowerCase(), m[2]]));
      const { 'content-security-policy': csp, ...others } = nginx;
      expect(directives(csp)).toEqual(directives(res.headers['content-security-policy']));
      const helmetHeaders = Object.keys(others).map((name) => [name, res.headers[name]]);
      expect(Object.entries(others)).toEqual(helmetHeaders);
      expect(Object.keys(others)).toEqual(expect.arrayContaining(['x-frame-options', 'x-content-type-options', 'referrer-policy', 'strict-transport-security']));
    } finally {
      await api.app.close();
    }
    // add_header in a location replaces the server's: every location but /api includes a snippet, the
    // hashed assets the one of a subresource's headers.
    const conf = readFileSync(join(deploy, 'nginx.conf'), 'utf8');
    const locations = [...conf.matchAll(/location (\S+) \{([^}]*)\}/g)].map((m) => ({ path: m[1], includes: [...m[2].matchAll(/include \/etc\/nginx\/snippets\/(\S+);/g)].map((i) => i[1]) }));
    expect(locations).toEqual([
      { path: '/api/', includes: [] },
      { path: '/assets/', includes: ['asset-headers.conf'] },
      { path: '/', includes: ['security-headers.conf'] },
    ]);
    const dockerfile = readFileSync(join(deploy, '..', 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('COPY deploy/security-headers.conf /etc/nginx/snippets/security-headers.conf');
    expect(dockerfile).toContain('COPY deploy/asset-headers.conf /etc/nginx/snippets/asset-headers.conf');
  });

  it("sends on hashed assets the API's headers for them: the page's, less those only a document acts on", async () => {
    const api = await createTestApp({});
    try {
      const res = await request(api.app.getHttpServer()).get('/api/health');
      const snippet = readFileSync(join(deploy, 'asset-headers.conf'), 'utf8');
      const nginx = Object.fromEntries([...snippet.matchAll(/^add_header (\S+) "([^"]*)" always;$/gm)].map((m) => [m[1].toLowerCase(), m[2]]));
      const documentOnly = new Set(DOCUMENT_ONLY_HEADERS.map((h) => h.toLowerCase()));
      const full = readFileSync(join(deploy, 'security-headers.conf'), 'utf8');
      const pageNames = [...full.matchAll(/^add_header (\S+) /gm)].map((m) => m[1].toLowerCase());
      expect(Object.keys(nginx)).toEqual(pageNames.filter((name) => !documentOnly.has(name)));
      expect(Object.entries(nginx)).toEqual(Object.keys(nginx).map((name) => [name, res.headers[name]]));
    } finally {
      await api.app.close();
    }
  });
});

/**
 * Its own app, last in the file: passport keeps one 'jwt' strategy per process (the last app's), so
 * once this app's database is gone, token checks of any other app in this process would fail too.
 */
describe('errors with the database gone', () => {

  it('every endpoint answers a coded error (503, never a 401 that would sign users out) and no stack', async () => {
    const broken = await createTestApp();
    const victim = await signUp(broken, 'dbgone');
    await broken.connection.close();
    try {
      const wrong: string[] = [];
      // Health answers its own 503 with `data.database: 'down'` (tested in app.e2e-spec).
      for (const route of routeInventory(broken.app).filter((r) => r.key !== 'GET /api/health')) {
        const req = request(broken.app.getHttpServer())[verbOf(route)](route.path.replace(/:\w+/g, '0123456789abcdef01234567')).set('Authorization', `Bearer ${victim.token}`);
        const res = route.method === 'GET' ? await req : await req.send({});
        const problem = [401, 500].includes(res.status) ? `a ${res.status}` : cleanErrorProblem(res, [503]);
        if (problem) wrong.push(`${route.key}: ${res.status} ${res.body?.code} (${problem})`);
      }
      expect(wrong).toEqual([]);
    } finally {
      await broken.app.close();
    }
  });
});
