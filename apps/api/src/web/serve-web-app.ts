import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';

// What the web build precompresses (apps/web/build/precompress.ts): `file.br` and `file.gz` beside `file`.
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * Security headers that only a document (a page, a frame) acts on. A hashed script or stylesheet is never
 * one, so it goes without them: about 530 bytes less with each of the thirty-odd files of a cold load
 * (sent uncompressed over HTTP/1.1), some of them smaller than their headers. It keeps those a
 * subresource is judged by: X-Content-Type-Options, Cross-Origin-Resource-Policy, Referrer-Policy (the
 * fetches a stylesheet makes) and Strict-Transport-Security. deploy/asset-headers.conf is nginx's copy.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
] as const;
const SUBRESOURCE_TYPES = new Set(['.js', '.mjs', '.css']);

/** The precompressed variants a file has beside it (`file.br`, `file.gz`). */
function variantsOf(file: string): Set<Encoding['name']> {
  return new Set(ENCODINGS.filter((e) => existsSync(file + e.suffix)).map((e) => e.name));
}

/** The best encoding the client accepts (q=0 refuses), among those the file has. */
export function pickEncoding(acceptEncoding: string | undefined, available: ReadonlySet<string>): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(token, q ? Number(q[1]) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return ENCODINGS.find((e) => available.has(e.name) && ok(e.name)) ?? null;
}

// A screen's page rendered at build time, one per language (apps/web/build/prerender.ts): `login.en.html`.
const PRERENDERED = /^\/login\.(en|zh-CN)\.html$/;
const isPage = (urlPath: string) => urlPath === '/index.html' || PRERENDERED.test(urlPath);

/**
 * The language a page is shown in, as the app decides it (apps/web/src/lib/i18n.ts): the one the
 * visitor chose (the app keeps it in the `lang` cookie too), else their browser's first.
 */
export function pageLanguage(cookie: string | undefined, acceptLanguage: string | undefined): 'en' | 'zh-CN' {
  const chosen = /(?:^|;\s*)lang=([^;]*)/.exec(cookie ?? '')?.[1];
  if (chosen === 'en' || chosen === 'zh-CN') return chosen;
  return (acceptLanguage ?? '').split(',')[0]!.trim().toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

function cacheControl(urlPath: string): string {
  if (isPage(urlPath)) return 'no-cache';
  // Hashed file names: a new build has new names, so a year is safe.
  if (urlPath.startsWith('/assets/')) return `public, max-age=${YEAR_SECONDS}, immutable`;
  return 'public, max-age=3600';
}

/**
 * The built web app on the same port as the API: hashed assets cached for a year, index.html never
 * without asking again (no-cache), every other path not under /api gets index.html. Text files go out
 * precompressed (brotli, else gzip) when the browser accepts it, with Content-Encoding and
 * Vary: Accept-Encoding; nothing is compressed per request.
 */
export function serveWebApp(app: NestExpressApplication, webDir: string): void {
  const dir = resolve(webDir);
  const setHeaders = (res: Response) => {
    const { urlPath, encoding, varies } = res.locals as { urlPath?: string; encoding?: Encoding | null; varies?: boolean };
    if (!urlPath) return;
    res.setHeader('Cache-Control', cacheControl(urlPath));
    if (urlPath.startsWith('/assets/') && SUBRESOURCE_TYPES.has(extname(urlPath))) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
    // The sign-in page at /login differs by the visitor's language too.
    if (PRERENDERED.test(urlPath)) res.setHeader('Vary', 'Accept-Encoding, Accept-Language, Cookie');
    else if (varies) res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) {
      res.setHeader('Content-Encoding', encoding.name);
      res.setHeader('Content-Type', TYPES[extname(urlPath)] ?? 'application/octet-stream');
    }
  };
  // index.html is asked for again each time (no-cache): its validators make that a 304. Hashed assets
  // never change under their name, so they go without validators (less to send with each of them).
  const indexFile = express.static(dir, { index: false, cacheControl: false, setHeaders });
  const staticFiles = express.static(dir, { index: false, cacheControl: false, etag: false, lastModified: false, setHeaders });

  const serve = (urlPath: string, req: Request, res: Response, next: NextFunction) => {
    const available = variantsOf(join(dir, urlPath));
    const encoding = pickEncoding(req.headers['accept-encoding'], available);
    res.locals.urlPath = urlPath;
    res.locals.varies = available.size > 0;
    res.locals.encoding = encoding;
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    req.url = `${encodeURI(urlPath)}${encoding?.suffix ?? ''}${query}`;
    (isPage(urlPath) ? indexFile : staticFiles)(req, res, next);
  };

  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path === '/api' || req.path.startsWith('/api/')) return next();
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      urlPath = req.path;
    }
    const file = join(dir, urlPath);
    const isFile = !urlPath.endsWith('/') && file.startsWith(dir + sep) && existsSync(file) && statSync(file).isFile();
    if (isFile && urlPath !== '/index.html') return serve(urlPath, req, res, next);
    // A missing hashed asset is a 404 (an old page asking for a file of an earlier build), never index.html.
    if (urlPath.startsWith('/assets/')) return res.status(404).type('text/plain').send('Not found');
    if (urlPath === '/login') {
      const page = `/login.${pageLanguage(req.headers.cookie, req.headers['accept-language'])}.html`;
      if (existsSync(join(dir, page))) return serve(page, req, res, next);
    }
    return serve('/index.html', req, res, next);
  });
}
