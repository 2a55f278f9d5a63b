// Part 5 of the play benchmark: opening a long story on /play in Chromium, to interactive.
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { longStory, ms, webDir, type Api } from './play-api';
import { record } from './report';
import { pct } from './stats';

// The little of playwright-core used here (it is a dependency of apps/web, loaded from there).
interface BrowserPage {
  goto(url: string): Promise<unknown>;
  waitForSelector(selector: string): Promise<unknown>;
  waitForFunction(fn: () => unknown): Promise<unknown>;
  on(event: 'request' | 'requestfinished', listener: (request: { url(): string }) => void): unknown;
}
interface CdpSession {
  send(method: string, params?: object): Promise<unknown>;
}
interface BrowserContext {
  addInitScript<A>(fn: (arg: A) => void, arg: A): Promise<void>;
  newCDPSession(page: BrowserPage): Promise<CdpSession>;
  newPage(): Promise<BrowserPage>;
  close(): Promise<void>;
}
interface Chromium {
  launch(options: { executablePath: string; headless: boolean; args: string[] }): Promise<{
    newContext(options: { baseURL: string }): Promise<BrowserContext>;
    startTracing(page: BrowserPage, options: { path: string; categories: string[] }): Promise<void>;
    stopTracing(): Promise<unknown>;
    close(): Promise<void>;
  }>;
}

export async function benchBrowserOpen(api: Api, text: string) {
  console.log('\n5. Opening that story on /play in Chromium');
  let chromium: Chromium;
  try {
    chromium = (createRequire(join(webDir, 'package.json'))('playwright-core') as { chromium: Chromium }).chromium;
  } catch {
    console.log('   skipped: playwright-core not installed in apps/web');
    return;
  }
  // The Chromium and flags of the browser tests (apps/web/e2e/chromium.cjs): the headless shell first.
  const { chromiumPath, CHROMIUM_ARGS } = createRequire(join(webDir, 'package.json'))('./e2e/chromium.cjs') as typeof import('../../../web/e2e/chromium.cjs');
  const executablePath = chromiumPath();
  if (!executablePath || !existsSync(join(webDir, 'dist', 'index.html'))) {
    console.log('   skipped: needs Chromium and a built web app (pnpm build)');
    return;
  }
  const id = await longStory(api, text);
  const browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const context = await browser.newContext({ baseURL: api.base });
      await context.addInitScript(([t]: readonly [string]) => {
        localStorage.setItem('token', t);
        localStorage.setItem('showGuide', 'false');
      }, [api.token] as const);
      const page = await context.newPage();
      const t0 = Date.now();
      // BENCH_PLAY_TRACE=1: when each request of the last load started and ended (ms after the navigation).
      const trace: string[] = [];
      if (process.env.BENCH_PLAY_TRACE && i === 3) {
        const started = new Map<object, number>();
        page.on('request', (r) => started.set(r, Date.now() - t0));
        page.on('requestfinished', (r) => trace.push(`${String(started.get(r)).padStart(5)} -> ${String(Date.now() - t0).padStart(5)} ms  ${r.url().replace(api.base, '')}`));
      }
      // BENCH_PLAY_PROFILE=<file>: the page's JavaScript CPU profile of the last load (Chrome DevTools format).
      const profileTo = i === 3 ? process.env.BENCH_PLAY_PROFILE : undefined;
      const cdp = profileTo ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      // BENCH_PLAY_CHROME_TRACE=<file>: Chromium's own trace of the last load (layout, style, scripts; chrome://tracing).
      const chromeTraceTo = i === 3 ? process.env.BENCH_PLAY_CHROME_TRACE : undefined;
      if (chromeTraceTo) {
        await browser.startTracing(page, { path: chromeTraceTo, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'loading'] });
      }
      await page.goto(`/play?id=${id}`);
      await page.waitForSelector('[data-testid="play-text"]');
      await page.waitForFunction(() => {
        const area = document.querySelector('[data-testid="play-textarea"]') as HTMLTextAreaElement | null;
        return area && !area.disabled;
      });
      if (i > 0) times.push(Date.now() - t0);
      if (chromeTraceTo) await browser.stopTracing();
      if (cdp && profileTo) writeFileSync(profileTo, JSON.stringify(((await cdp.send('Profiler.stop')) as { profile: unknown }).profile));
      if (trace.length) console.log(`   requests of the last load (interactive at ${Date.now() - t0} ms):\n${trace.sort().map((l) => `     ${l}`).join('\n')}`);
      await context.close();
    }
    console.log(`   to interactive (text shown, input enabled): p50 ${ms(pct(times, 50))}, worst ${ms(Math.max(...times))} over ${times.length} warm loads   (target < 1500 ms)`);
    record({
      suite: 'play',
      measure: `open a ${text.length.toLocaleString('en')}-char story on /play in Chromium (to interactive)`,
      unit: 'ms',
      median: pct(times, 50),
      target: '< 1500 ms',
      met: pct(times, 50) < 1500,
      note: `worst ${Math.max(...times)} ms over ${times.length} warm loads`,
    });
  } finally {
    await browser.close();
  }
}
