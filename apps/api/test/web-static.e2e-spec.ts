import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { pickEncoding } from '../src/web/serve-web-app';
import { rawRequest } from './support/raw-http';
import { expectSubresourceHeaders } from './security/subresource-headers';
import { createTestApp, type TestApp } from './test-app';

// A built web app as apps/web's build leaves it: hashed assets with .br and .gz beside them.
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app-1a2b.js"></script></head><body>${'<!-- padding -->'.repeat(100)}</body></html>`;
const APP_JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const APP_CSS = `body{color:red}${'.a{margin:0}'.repeat(200)}`;

function writeWithVariants(path: string, body: string) {
  writeFileSync(path, body);
  writeFileSync(`${path}.br`, brotliCompressSync(Buffer.from(body)));
  writeFileSync(`${path}.gz`, gzipSync(Buffer.from(body)));
}

/** An app serving a web folder that `fill` writes (index.html is always there), listening on a port of its own. */
function servingWeb(fill: (web: string) => void): { app: () => TestApp; port: () => number } {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    const web = mkdtempSync(join(tmpdir(), 'taleloom-web-static-'));
    writeWithVariants(join(web, 'index.html'), INDEX);
    fill(web);
    t = await createTestApp({ WEB_DIST_DIR: web });
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((done) => (t.app.getHttpServer() as Server).close(done));
    await t.close();
  });
  return { app: () => t, port: () => port };
}

describe('the built web app, served precompressed', () => {
  const served = servingWeb((web) => {
    mkdirSync(join(web, 'assets'));
    writeWithVariants(join(web, 'assets', 'app-1a2b.js'), APP_JS);
    writeWithVariants(join(web, 'assets', 'app-1a2b.css'), APP_CSS);
    writeFileSync(join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  });
  const http = () => request(served.app().app.getHttpServer());
  const fetchRaw = (path: string, acceptEncoding: string) => rawRequest(served.port(), path, { 'Accept-Encoding': acceptEncoding });

  it('sends brotli to a browser that takes it, with the type of the file, Vary and a year of cache for a hashed asset', async () => {
    const res = await fetchRaw('/assets/app-1a2b.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.body).toString()).toBe(APP_JS);
    expect(Number(res.headers['content-length'])).toBeLessThan(APP_JS.length / 10);
    // Cached for good under its name: no validators to send.
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
  });

  it("sends a hashed script or stylesheet a subresource's security headers only; the page and other files get them all", async () => {
    for (const path of ['/assets/app-1a2b.js', '/assets/app-1a2b.css']) {
      expectSubresourceHeaders((await fetchRaw(path, 'gzip')).headers, path);
    }
    for (const path of ['/', '/login', '/favicon.svg']) {
      const res = await fetchRaw(path, 'gzip');
      expect({ path, csp: res.headers['content-security-policy'] }).toEqual({ path, csp: expect.stringContaining("frame-ancestors 'none'") });
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('sends gzip when brotli is not accepted, and the file as it is when neither is', async () => {
    const gz = await fetchRaw('/assets/app-1a2b.css', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gunzipSync(gz.body).toString()).toBe(APP_CSS);

    const plain = await fetchRaw('/assets/app-1a2b.css', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.body.toString()).toBe(APP_CSS);
  });

  it('answers index.html (compressed, never cached without asking) for the root and every client-side route', async () => {
    for (const path of ['/', '/login', '/play?id=1', '/stories/deep/link']) {
      const res = await fetchRaw(path, 'br');
      expect({ path, status: res.status, encoding: res.headers['content-encoding'], cache: res.headers['cache-control'] }).toEqual({
        path,
        status: 200,
        encoding: 'br',
        cache: 'no-cache',
      });
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      // Asked for again each time: a validator makes that a 304.
      expect(res.headers.etag).toBeTruthy();
      expect(brotliDecompressSync(res.body).toString()).toBe(INDEX);
    }
  });

  it('a missing hashed asset is a 404, not index.html; a file without variants goes out as it is; HEAD works', async () => {
    expect((await http().get('/assets/gone-1234.js')).status).toBe(404);
    const icon = await http().get('/favicon.svg').set('Accept-Encoding', 'br, gzip');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    const head = await http().head('/assets/app-1a2b.js').set('Accept-Encoding', 'br');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
  });

  it('never serves a precompressed file by its own name, nor anything outside the folder', async () => {
    expect((await http().get('/assets/app-1a2b.js.br')).headers['content-encoding']).toBeUndefined();
    expect((await http().get('/..%2f..%2fetc%2fpasswd')).text).toBe(INDEX);
    expect((await http().get('/api/no-such')).status).toBe(404);
  });

  it('picks the best accepted encoding and honours q=0', () => {
    const both = new Set(['br', 'gzip']);
    expect(pickEncoding('gzip, br', both)?.name).toBe('br');
    expect(pickEncoding('br;q=0, gzip', both)?.name).toBe('gzip');
    expect(pickEncoding('*', both)?.name).toBe('br');
    expect(pickEncoding('*;q=0', both)).toBeNull();
    expect(pickEncoding(undefined, both)).toBeNull();
    expect(pickEncoding('br', new Set(['gzip']))).toBeNull();
  });
});

describe('the sign-in page rendered at build time, in the visitor language', () => {
  const PAGE = (lang: string) => `<!doctype html><html lang="${lang}"><body><div id="root" inert data-prerendered="${lang}">${'<p>sign in</p>'.repeat(100)}</div></body></html>`;
  const served = servingWeb((web) => {
    for (const lang of ['en', 'zh-CN']) writeWithVariants(join(web, `login.${lang}.html`), PAGE(lang));
  });
  const port = () => served.port();

  it("answers /login with the page of the chosen language (the lang cookie), else the browser's first; never cached without asking", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.8' }, 'zh-CN'],
      [{ 'Accept-Language': 'zh-TW' }, 'zh-CN'],
      [{ 'Accept-Language': 'en-US,en;q=0.9' }, 'en'],
      [{}, 'en'],
      [{ 'Accept-Language': 'zh-CN', Cookie: 'theme=dark; lang=en' }, 'en'],
      [{ 'Accept-Language': 'en-US', Cookie: 'lang=zh-CN' }, 'zh-CN'],
      [{ 'Accept-Language': 'zh-CN', Cookie: 'lang=fr' }, 'zh-CN'],
    ];
    for (const [headers, lang] of cases) {
      const res = await rawRequest(port(), '/login?redirect=%2Fplay', { 'Accept-Encoding': 'br', ...headers });
      expect({ headers, status: res.status, page: brotliDecompressSync(res.body).toString() }).toEqual({ headers, status: 200, page: PAGE(lang) });
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.etag).toBeTruthy();
      expect(res.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('every other route still gets index.html', async () => {
    for (const path of ['/', '/stories', '/play?id=1', '/login/extra']) {
      const res = await rawRequest(port(), path, { 'Accept-Encoding': 'br', 'Accept-Language': 'zh-CN' });
      expect({ path, page: brotliDecompressSync(res.body).toString() }).toEqual({ path, page: INDEX });
    }
  });
});
