#!/usr/bin/env node
/* global document, window, requestAnimationFrame -- the functions handed to the page run there */
// `pnpm bench` (web part, after cold-load.mjs): the first screens on a mid-range phone. Cold loads (a fresh
// context, empty cache) of /login, /stories, /play with a short story and /play with a 1,000,000-character
// story, in English and Chinese, against the built app served as `pnpm start` serves it (loopback only):
//
// - phone: Lighthouse's mobile profile through the DevTools protocol: CPU slowed 4x
//   (Emulation.setCPUThrottlingRate), 1.6 Mbps down, 750 kbps up, 150 ms round trip
//   (Network.emulateNetworkConditions), 375 px wide;
// - desktop: the same loads unthrottled at 1280 px, beside them.
//
// Each prints the time to usable (navigation start until the screen's main field or button is on screen and
// takes input) and the largest contentful paint, medians of BENCH_PHONE_RUNS loads (default 3) with their
// spread, and the bytes and requests of the first screen. Then one more phone load per screen, traced:
// the main thread's work until usable (script, style and layout, long tasks over 50 ms) and the script
// time by bundle (a CPU profile's samples by the file their code came from).
//
// BENCH_PHONE_BASELINE_DIST=<another build's dist> serves that build too (by a second API) and alternates
// every load between the two, so a before/after comes from the same minutes of a shared machine.
// BENCH_PHONE_SCREENS=login,stories picks screens (login, stories, play, play-long).
// Figures go to stdout and bench-results/web-phone.json. It never fails on a figure, only on a broken run.
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { kb, launch, median, repo, runBench, signUp, startApp } from './serve.mjs';

const RUNS = Math.max(1, Number(process.env.BENCH_PHONE_RUNS ?? 3));
const BASELINE_DIST = process.env.BENCH_PHONE_BASELINE_DIST ?? '';
const LONG_CHARS = 1_000_000;

export const PROFILES = {
  phone: {
    viewport: { width: 375, height: 740 },
    cpu: 4,
    // Bytes per second, as the protocol takes them.
    network: { offline: false, latency: 150, downloadThroughput: (1.6 * 1e6) / 8, uploadThroughput: (750 * 1e3) / 8 },
  },
  desktop: { viewport: { width: 1280, height: 800 }, cpu: 1, network: null },
};

/** Each screen: its path (given the user's stories), the goal on the phone, and when it is usable. */
const SCREENS = [
  { name: 'login', path: () => '/login', signedIn: false, goalMs: 2500, lcpGoalMs: 2500, ready: '[data-testid="login-card"] button[type="submit"]', input: '[data-testid="login-card"] input' },
  { name: 'stories', path: () => '/stories', signedIn: true, goalMs: 3000, ready: '[data-testid="stories-new"]', input: '[data-testid="stories-search"] input, input[data-testid="stories-search"]' },
  { name: 'play', path: (u) => `/play?id=${u.storyId}`, signedIn: true, goalMs: 3000, ready: '[data-testid="play-text"]', input: '[data-testid="play-textarea"]' },
  { name: 'play-long', path: (u) => `/play?id=${u.longStoryId}`, signedIn: true, goalMs: 5000, ready: '[data-testid="play-text"]', input: '[data-testid="play-textarea"]' },
];

/**
 * In the page from its first script on: the first animation frame at which the screen's button or text is
 * laid out and its field is enabled (window.__usable, ms after navigation start), and the latest largest
 * contentful paint (window.__lcp).
 */
function watchPage([ready, input]) {
  window.__lcp = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    const shown = document.querySelector(ready);
    const field = document.querySelector(input);
    if (shown && field && !field.disabled && !field.closest('[inert]') && shown.getBoundingClientRect().height > 0 && field.getBoundingClientRect().height > 0) {
      window.__usable = performance.now();
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'loading', 'blink.user_timing'];

/** One cold load of `screen` under `profile`; with `trace`, the main thread's work too. */
async function load(browser, app, user, screen, lang, profileName, { trace = false } = {}) {
  const profile = PROFILES[profileName];
  const context = await browser.newContext({ baseURL: app.baseURL, viewport: profile.viewport, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
  let tracing = false;
  try {
    if (screen.signedIn) {
      const u = user(app);
      await context.addInitScript(
        ([t, info, l]) => {
          localStorage.setItem('token', t);
          localStorage.setItem('userInfo', info);
          localStorage.setItem('lang', l);
          localStorage.setItem('powerDialogClosedAt', String(Date.now()));
          localStorage.setItem('showGuide', 'false');
        },
        [u.token, JSON.stringify(u.userInfo), lang],
      );
    }
    await context.addInitScript(watchPage, [screen.ready, screen.input]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (profile.network) await cdp.send('Network.emulateNetworkConditions', profile.network);
    if (profile.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    const responses = [];
    const types = new Map();
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, { url: e.response.url, type: e.type }));
    cdp.on('Network.loadingFinished', (e) => {
      const r = types.get(e.requestId);
      if (r) responses.push({ ...r, bytes: e.encodedDataLength });
    });
    if (trace) {
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      tracing = true;
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    await page.goto(screen.path(user(app)), { waitUntil: 'commit' });
    const usableMs = await (await page.waitForFunction(() => window.__usable, null, { polling: 100, timeout: 60_000 })).jsonValue();
    const cpuProfile = trace ? (await cdp.send('Profiler.stop')).profile : null;
    // What the first screen carried: everything finished by the time it was usable, and a moment to settle
    // for the largest paint (it is final once the page has painted what it loaded).
    await page.waitForTimeout(profileName === 'phone' ? 1500 : 300);
    const lcpMs = await page.evaluate(() => window.__lcp);
    const traced = trace ? await browser.stopTracing() : null;
    tracing = false;
    const first = responses.filter((r) => !new URL(r.url).pathname.startsWith('/api/'));
    return {
      usableMs,
      lcpMs,
      firstScreenBytes: first.reduce((n, r) => n + r.bytes, 0),
      requests: responses.length,
      breakdown: traced ? mainThread(JSON.parse(traced.toString('utf8')), cpuProfile, usableMs, app.baseURL) : null,
    };
  } finally {
    // A load that failed while traced leaves the browser's trace running: a retry could not start its own.
    if (tracing) await browser.stopTracing().catch(() => undefined);
    await context.close();
  }
}

/**
 * One load, tried once more when the screen did not become usable within 60 s (a machine loaded by other
 * work stalls a throttled page now and then): a whole run no longer ends on one such load. The stall is
 * said in the output, and a second one ends the run.
 */
async function loadOrRetry(...args) {
  try {
    return await load(...args);
  } catch (error) {
    if (!/Timeout/i.test(error.message)) throw error;
    const [, app, , screen, lang, profile] = args;
    console.warn(`${app.label} ${screen.name} ${lang} (${profile}): not usable within 60 s; loading it once more`);
    return load(...args);
  }
}

/** Total length of a set of [start, end] intervals once overlaps are merged. */
function unionLength(intervals) {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [s, e] = [-Infinity, -Infinity];
  for (const [a, b] of sorted) {
    if (a > e) {
      if (e > s) total += e - s;
      [s, e] = [a, b];
    } else e = Math.max(e, b);
  }
  if (e > s) total += e - s;
  return total;
}

const JS_EVENTS = new Set(['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'v8.produceModuleCache', 'FunctionCall', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'RunMicrotasks', 'V8.RunMicrotasks', 'v8.run', 'v8.callFunction', 'V8.GCScavenger', 'MajorGC', 'MinorGC', 'ParseHTML']);
const STYLE_EVENTS = new Set(['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet', 'ScheduleStyleRecalculation']);
const LAYOUT_EVENTS = new Set(['Layout', 'UpdateLayerTree', 'PrePaint', 'Paint', 'Layerize', 'Commit']);

/**
 * The renderer main thread's work from navigation start until usable, from a Chromium trace: script
 * (compiling, evaluating and running, HTML parsing and garbage collection, less the style and layout
 * it forced), style (recalculation, style sheet parsing), layout and paint, long tasks (over 50 ms);
 * and script self time by bundle from the CPU profile (samples until usable).
 */
function mainThread(traceJson, cpuProfile, usableMs, baseURL) {
  const events = traceJson.traceEvents ?? traceJson;
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The page's renderer: the main thread on which the navigation to the app started.
  const nav = events
    .filter((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').startsWith(baseURL))
    .find((e) => mains.some((m) => m.pid === e.pid && m.tid === e.tid));
  if (!nav) return null;
  const start = nav.ts;
  const end = start + usableMs * 1000;
  const own = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ph === 'X' && e.ts >= start && e.ts < end);
  const span = (e) => [e.ts, Math.min(e.ts + (e.dur ?? 0), end)];
  const js = own.filter((e) => JS_EVENTS.has(e.name)).map(span);
  const style = own.filter((e) => STYLE_EVENTS.has(e.name)).map(span);
  const layout = own.filter((e) => LAYOUT_EVENTS.has(e.name)).map(span);
  const styleAndLayout = unionLength([...style, ...layout]);
  const tasks = own.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').map((e) => e.dur ?? 0);
  const long = tasks.filter((d) => d > 50_000);
  const ms = (us) => Math.round(us / 1000);
  const busy = unionLength(own.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').map(span));
  return {
    usableMs: Math.round(usableMs),
    busyMs: ms(busy),
    scriptMs: ms(unionLength([...js, ...style, ...layout]) - styleAndLayout),
    styleMs: ms(unionLength(style)),
    layoutPaintMs: ms(unionLength(layout)),
    longTasks: long.length,
    longTasksMs: ms(long.reduce((a, b) => a + b, 0)),
    longestTaskMs: ms(Math.max(0, ...tasks)),
    byBundle: cpuProfile ? byBundle(cpuProfile) : {},
  };
}

/** A CPU profile's self time by the file its code came from (ms), largest first. */
function byBundle(profile) {
  const nodeUrl = new Map(profile.nodes.map((n) => [n.id, n.callFrame.url ? basename(new URL(n.callFrame.url, 'http://x').pathname) : n.callFrame.functionName || '(native)']));
  const out = {};
  profile.samples.forEach((id, i) => {
    const key = nodeUrl.get(id) ?? '(unknown)';
    out[key] = (out[key] ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000;
  });
  delete out['(idle)'];
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v)]));
}

const spread = (xs) => `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}-${Math.round(Math.max(...xs))})`;

async function main() {
  const screens = process.env.BENCH_PHONE_SCREENS ? SCREENS.filter((s) => process.env.BENCH_PHONE_SCREENS.split(',').includes(s.name)) : SCREENS;
  const builds = [{ label: 'this build', dist: join(repo, 'apps/web/dist') }];
  if (BASELINE_DIST) builds.unshift({ label: 'baseline', dist: BASELINE_DIST });
  const apps = [];
  let browser;
  const results = { at: new Date().toISOString(), cpus: cpus().length, node: process.version, runs: RUNS, profiles: PROFILES, rows: [], traces: [] };
  try {
    for (const b of builds) apps.push({ ...b, ...(await startApp(b.dist)) });
    const users = new Map();
    for (const app of apps) users.set(app, await signUp(app.baseURL, { longChars: screens.some((s) => s.name === 'play-long') ? LONG_CHARS : 0 }));
    const user = (app) => users.get(app);
    browser = await launch();
    // One warm-up load per app so the server's first-request costs do not count.
    for (const app of apps) await load(browser, app, user, SCREENS[0], 'en', 'desktop');
    for (const screen of screens) {
      for (const lang of ['en', 'zh-CN']) {
        for (const profile of ['phone', 'desktop']) {
          const runs = new Map(apps.map((a) => [a, []]));
          // Alternating the builds load by load: both see the same moments of a shared machine.
          for (let i = 0; i < RUNS; i++) for (const app of apps) runs.get(app).push(await loadOrRetry(browser, app, user, screen, lang, profile));
          for (const app of apps) {
            const rs = runs.get(app);
            const row = {
              build: app.label,
              screen: screen.name,
              lang,
              profile,
              usableMs: median(rs.map((r) => r.usableMs)),
              usable: rs.map((r) => Math.round(r.usableMs)),
              lcpMs: median(rs.map((r) => r.lcpMs)),
              lcp: rs.map((r) => Math.round(r.lcpMs)),
              firstScreenBytes: median(rs.map((r) => r.firstScreenBytes)),
              requests: median(rs.map((r) => r.requests)),
              goalMs: screen.goalMs,
              lcpGoalMs: screen.lcpGoalMs ?? null,
            };
            row.met = profile !== 'phone' || (row.usableMs <= screen.goalMs && (!screen.lcpGoalMs || row.lcpMs <= screen.lcpGoalMs));
            results.rows.push(row);
          }
        }
        for (const app of apps) {
          const t = await loadOrRetry(browser, app, user, screen, lang, 'phone', { trace: true });
          results.traces.push({ build: app.label, screen: screen.name, lang, ...t.breakdown });
        }
      }
    }
  } finally {
    await browser?.close();
    for (const app of apps) await app.stop();
  }

  console.log(`\nFirst screens, cold (empty cache), phone = CPU 4x slower, 1.6 Mbps / 750 kbps, 150 ms RTT, 375 px; desktop unthrottled at 1280 px`);
  console.log(`Medians of ${RUNS} loads (min-max); load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
  console.table(
    results.rows.map((r) => ({
      ...(BASELINE_DIST ? { build: r.build } : {}),
      screen: `/${r.screen} ${r.lang}`,
      profile: r.profile,
      'usable ms': spread(r.usable),
      'LCP ms': spread(r.lcp),
      'first screen': kb(r.firstScreenBytes),
      requests: r.requests,
      goal: r.profile === 'phone' ? `usable ≤ ${r.goalMs}${r.lcpGoalMs ? `, LCP ≤ ${r.lcpGoalMs}` : ''}` : '',
      met: r.profile === 'phone' ? (r.met ? 'yes' : 'NO') : '',
    })),
  );
  console.log('\nMain thread until usable, one traced phone load per screen and language (ms)');
  console.table(
    results.traces.map((t) => ({
      ...(BASELINE_DIST ? { build: t.build } : {}),
      screen: `/${t.screen} ${t.lang}`,
      usable: t.usableMs,
      busy: t.busyMs,
      script: t.scriptMs,
      style: t.styleMs,
      'layout+paint': t.layoutPaintMs,
      'long tasks': `${t.longTasks} (${t.longTasksMs} ms, longest ${t.longestTaskMs})`,
    })),
  );
  console.log('Script self time by bundle (CPU profile samples until usable, throttled ms; top 8)');
  for (const t of results.traces) {
    const top = Object.entries(t.byBundle ?? {}).slice(0, 8).map(([k, v]) => `${k} ${v}`).join(', ');
    console.log(`  ${BASELINE_DIST ? `${t.build}: ` : ''}/${t.screen} ${t.lang}: ${top}`);
  }
  return results;
}

runBench('phone', 'web-phone.json', main);
