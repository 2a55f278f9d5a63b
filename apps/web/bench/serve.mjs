// What the web benches share: the built app served as `pnpm start` serves it (the API with the built web,
// embedded database, no keys, loopback only), Debian's Chromium, a signed-up user with stories, and how a
// bench runs and keeps its results.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, chromiumPath } from '../e2e/chromium.cjs';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));

function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => done(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** The built API serving `webDist` on a free loopback port, healthy; `stop()` ends it and removes its data. */
export async function startApp(webDist) {
  const main = join(repo, 'apps/api/dist/main.js');
  const web = join(webDist, 'index.html');
  if (!existsSync(main) || !existsSync(web)) throw new Error(`Build first (pnpm build): apps/api/dist and ${web} are needed`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-bench-web-'));
  const child = spawn(process.execPath, [main], {
    cwd: join(repo, 'apps/api'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      EMBEDDED_DATABASE: process.env.EMBEDDED_DATABASE ?? 'stand-in',
      WEB_DIST_DIR: webDist,
      LOGIN_IP_PER_MINUTE: '10000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  // The app writes its database's journal as it shuts down: its data goes once it has exited (at most 20 s),
  // not while it still writes there (on a loaded machine that took longer than half a second).
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    }
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${baseURL}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('the app did not become healthy within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (error) {
    // The bench stops by itself: an app that never became healthy is not left running.
    await stop();
    throw error;
  }
  return { baseURL, stop };
}

export function launch() {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * fetch, again up to twice when the connection itself failed (a kept-alive connection the server closed
 * as it was reused: seen on a loaded machine). Signing up again with the same name and password signs in.
 */
async function fetchAgain(url, init, tries = 3) {
  for (let i = 1; ; i++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (i >= tries) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * A new user (username sign-up) with a short story, and with `longChars` a second story whose text is
 * that many characters long (`longStoryId`).
 */
export async function signUp(baseURL, { longChars = 0 } = {}) {
  const res = await fetchAgain(`${baseURL}/api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'username', userName: `bench${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`, password: 'secret1' }),
  });
  const { data } = await res.json();
  const auth = { 'Content-Type': 'application/json', Authorization: `Bearer ${data.token}` };
  const create = async (name) => {
    const created = await fetchAgain(`${baseURL}/api/llm`, { method: 'POST', headers: auth, body: JSON.stringify({ name, prologue_and_characters: 'Mara waits at the pier.', role: 'Mara' }) });
    return (await created.json()).data.id;
  };
  const storyId = await create('Cold load');
  let longStoryId;
  if (longChars) {
    longStoryId = await create('A long one');
    const saved = await fetchAgain(`${baseURL}/api/llm?id=${longStoryId}`, { method: 'PATCH', headers: auth, body: JSON.stringify({ main_text: novel(longChars) }) });
    if (!saved.ok) throw new Error(`saving the long story answered ${saved.status}: ${await saved.text()}`);
  }
  return { token: data.token, userInfo: data.userInfo, storyId, longStoryId };
}

/** `chars` characters of prose in paragraphs. */
function novel(chars) {
  const sentences = [
    'The tide came in slowly over the black stones of the harbour.',
    'Somewhere a bell rang twice and then fell silent.',
    'Mara counted the coins again, though she knew the sum by heart.',
    'Ilan watched from the customs house, his lamp burning late.',
  ];
  const out = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const s = `${sentences[i % sentences.length]} (${i})${i % 6 === 5 ? '\n\n' : ' '}`;
    out.push(s);
    n += s.length;
  }
  return out.join('').slice(0, chars);
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

/**
 * Runs a bench: `main` answers its results, which are written, with the seconds the run took, to
 * bench-results/`file`; the process exits 0, or 1 with the error (`name` says which bench failed).
 */
export function runBench(name, file, main) {
  const started = Date.now();
  main().then(
    (results) => {
      results.seconds = Math.round((Date.now() - started) / 1000);
      const output = join(repo, 'bench-results', file);
      mkdirSync(dirname(output), { recursive: true });
      writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
      console.log(`\nWritten to ${output}`);
      process.exit(0);
    },
    (error) => {
      console.error(`${name} benchmark failed:`, error);
      process.exit(1);
    },
  );
}
