#!/usr/bin/env node
/* global document, window, PopStateEvent -- the functions handed to page.evaluate run in the page */
// `pnpm bench` (web part): the cold first load of the built app in headless Chromium, against the built
// API serving it exactly as `pnpm start` does (embedded database, no keys).
//
// For /login (English and Chinese, 375 px and 1280 px, each several times with an empty cache) it prints
// the bytes on the wire per type (what the network carried: compressed size plus headers), the number of
// requests and the time to usable (navigation start until the login form's submit button is on screen
// and its first field takes input). Then, signed in, it walks to /stories, /play and /create inside the
// app and prints what each route fetched on arrival (its own code only, ideally).
//
// Figures go to stdout and to bench-results/web-cold-load.json at the repository root. It never fails
// on a figure, only on a broken run.
//
//   pnpm --filter @taleloom/web bench          (needs `pnpm build` first; `pnpm bench` builds)
//   COLD_LOAD_RUNS=9 pnpm --filter @taleloom/web bench
//   COLD_LOAD_WEB_DIST=/path/to/another/dist COLD_LOAD_LABEL=before pnpm --filter @taleloom/web bench
//                                              (another build of the web app, e.g. an earlier commit's,
//                                              served by this API, for a before/after in one sitting)
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { kb, launch, median, repo, runBench, signUp, startApp as startAppServing } from './serve.mjs';

const RUNS = Number(process.env.COLD_LOAD_RUNS ?? 5);
const WEB_DIST = process.env.COLD_LOAD_WEB_DIST ?? join(repo, 'apps/web/dist');
const LABEL = process.env.COLD_LOAD_LABEL ?? '';
const VIEWPORTS = { phone: { width: 375, height: 740 }, desktop: { width: 1280, height: 800 } };
// The goal the issue sets for the first screen.
const BYTES_TARGET = 300 * 1024;
const USABLE_TARGET_MS = 1000;

const startApp = () => startAppServing(WEB_DIST);

/** The kind a response counts under: html, js, css, font, image, api, other. */
function kindOf(url, mime, cdpType) {
  const path = new URL(url).pathname;
  if (path.startsWith('/api/')) return 'api';
  if (cdpType === 'Document' || mime.includes('html')) return 'html';
  if (cdpType === 'Script' || mime.includes('javascript')) return 'js';
  if (cdpType === 'Stylesheet' || mime.includes('css')) return 'css';
  if (cdpType === 'Font' || mime.startsWith('font/')) return 'font';
  if (cdpType === 'Image' || mime.startsWith('image/')) return 'image';
  return 'other';
}

/**
 * Records every response of a page through the DevTools protocol: the bytes the network carried
 * (encodedDataLength: headers plus the body as sent, compressed when it was) and its Content-Encoding.
 */
async function recordNetwork(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const byId = new Map();
  const done = [];
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    byId.set(e.requestId, {
      url: e.response.url,
      kind: kindOf(e.response.url, e.response.mimeType ?? '', e.type),
      encoding: headers['content-encoding'] ?? '',
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (r) done.push({ ...r, bytes: e.encodedDataLength });
  });
  return {
    /** The responses finished since the last call. */
    take() {
      return done.splice(0, done.length);
    },
  };
}

function summarize(responses) {
  const byKind = {};
  for (const r of responses) {
    const k = (byKind[r.kind] ??= { requests: 0, bytes: 0 });
    k.requests += 1;
    k.bytes += r.bytes;
  }
  const firstScreen = responses.filter((r) => ['html', 'js', 'css', 'font'].includes(r.kind));
  return {
    byKind,
    requests: responses.length,
    bytes: responses.reduce((n, r) => n + r.bytes, 0),
    firstScreenBytes: firstScreen.reduce((n, r) => n + r.bytes, 0),
    uncompressed: firstScreen.filter((r) => !r.encoding && r.bytes > 1024).map((r) => new URL(r.url).pathname),
  };
}

// Navigation start until the login form is on screen and takes input, in the page's own clock.
const USABLE = () => {
  const button = document.querySelector('[data-testid="login-card"] button[type="submit"]');
  // Not the sign-in screen rendered at build time (inert until the app renders over it).
  const field = document.querySelector('#root:not([inert]) [data-testid="login-card"] input:not([disabled])');
  if (!button || !field) return false;
  const box = button.getBoundingClientRect();
  return box.height > 0 ? performance.now() : false;
};

async function coldLogin(browser, baseURL, lang, viewport) {
  const context = await browser.newContext({ baseURL, viewport, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
  try {
    const page = await context.newPage();
    const network = await recordNetwork(page);
    await page.goto('/login', { waitUntil: 'commit' });
    const usable = await (await page.waitForFunction(USABLE, null, { polling: 'raf', timeout: 30_000 })).jsonValue();
    await page.waitForLoadState('networkidle');
    return { usableMs: usable, ...summarize(network.take()) };
  } finally {
    await context.close();
  }
}

/** Signed in, from /login's first screen to each route inside the app: what each fetched on arrival. */
async function routes(browser, baseURL) {
  const { token, userInfo, storyId } = await signUp(baseURL);
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop, locale: 'en-US' });
  await context.addInitScript(
    ([t, u]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('userInfo', u);
      localStorage.setItem('powerDialogClosedAt', String(Date.now()));
      localStorage.setItem('showGuide', 'false');
    },
    [token, JSON.stringify(userInfo)],
  );
  const out = [];
  try {
    const page = await context.newPage();
    const network = await recordNetwork(page);
    await page.goto('/404-cold-start');
    await page.waitForLoadState('networkidle');
    out.push({ route: 'first load (not-found page)', ...summarize(network.take()) });
    for (const [route, ready] of [
      ['/stories', '[data-testid="stories-heading"]'],
      [`/play?id=${storyId}`, '[data-testid="play-textarea"]'],
      ['/create', '[data-testid="create-form"]'],
    ]) {
      // A client-side navigation, as a link in the app does.
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, route);
      await page.waitForSelector(ready, { timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      const r = summarize(network.take());
      out.push({ route: route.split('?')[0], ...r, code: r.byKind.js?.bytes ?? 0, css: r.byKind.css?.bytes ?? 0 });
    }
  } finally {
    await context.close();
  }
  return out;
}


async function main() {
  const app = await startApp();
  let browser;
  const results = { at: new Date().toISOString(), label: LABEL || 'this build', cpus: cpus().length, node: process.version, runs: RUNS, login: [], routes: [] };
  try {
    // Inside the try: without Chromium the app it started is stopped too (it was left running, and
    // turbo waited for it).
    browser = await launch();
    // One warm-up load so the server's first-request costs do not count.
    await coldLogin(browser, app.baseURL, 'en', VIEWPORTS.desktop);
    for (const lang of ['en', 'zh-CN']) {
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await coldLogin(browser, app.baseURL, lang, viewport));
        const last = runs[runs.length - 1];
        results.login.push({
          lang,
          viewport: name,
          usableMs: median(runs.map((r) => r.usableMs)),
          usableMaxMs: Math.max(...runs.map((r) => r.usableMs)),
          firstScreenBytes: median(runs.map((r) => r.firstScreenBytes)),
          bytes: median(runs.map((r) => r.bytes)),
          requests: median(runs.map((r) => r.requests)),
          byKind: last.byKind,
          uncompressed: last.uncompressed,
        });
      }
    }
    results.routes = await routes(browser, app.baseURL);
  } finally {
    await browser?.close();
    await app.stop();
  }

  console.log(`\nCold first load of /login${LABEL ? ` (${LABEL})` : ''} (median of ${RUNS} loads each, empty cache; load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${cpus().length} CPUs)`);
  console.table(
    results.login.map((r) => ({
      page: `/login ${r.lang} ${r.viewport}`,
      'first screen (html+js+css+fonts)': kb(r.firstScreenBytes),
      'all bytes': kb(r.bytes),
      requests: r.requests,
      ...Object.fromEntries(Object.entries(r.byKind).map(([k, v]) => [k, `${kb(v.bytes)} / ${v.requests}`])),
      'usable (median / max)': `${r.usableMs.toFixed(0)} / ${r.usableMaxMs.toFixed(0)} ms`,
      met: r.firstScreenBytes <= BYTES_TARGET && r.usableMs <= USABLE_TARGET_MS ? 'yes' : 'NO',
    })),
  );
  for (const r of results.login) if (r.uncompressed.length) console.log(`uncompressed (${r.lang} ${r.viewport}): ${r.uncompressed.join(', ')}`);
  console.log('\nEach route reached inside the app, signed in: what it fetched on arrival');
  console.table(
    results.routes.map((r) => ({
      route: r.route,
      requests: r.requests,
      'all bytes': kb(r.bytes),
      ...Object.fromEntries(Object.entries(r.byKind).map(([k, v]) => [k, `${kb(v.bytes)} / ${v.requests}`])),
    })),
  );
  return results;
}

runBench('cold-load', `web-cold-load${LABEL ? `-${LABEL}` : ''}.json`, main);
