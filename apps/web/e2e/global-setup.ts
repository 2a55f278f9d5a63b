import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startOpenAIStub, type OpenAIStub } from '../../api/test/support/openai-stub';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The local OpenAI-compatible stub (empty with E2E_MODELS=demo): custom models point at it. */
    stubURL: string;
  }
}

const repo = fileURLToPath(new URL('../../../', import.meta.url));
let server: ChildProcess | undefined;
let stub: OpenAIStub | undefined;
let dataDir: string | undefined;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => done(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** Starts the built app (API + web on one port, embedded database) exactly as `pnpm start` does. */
export default async function setup(project: TestProject) {
  const main = join(repo, 'apps/api/dist/main.js');
  const web = join(repo, 'apps/web/dist/index.html');
  if (!existsSync(main) || !existsSync(web)) throw new Error('Build first: apps/api/dist and apps/web/dist are needed');
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'taleloom-e2e-'));
  // E2E_MODELS=demo runs on the offline demo model alone; by default a local OpenAI-compatible stub
  // is the first (default) model, so replies are predictable; typing [[fail]] breaks a stream half-way.
  const models: Record<string, string> = {};
  if (process.env.E2E_MODELS !== 'demo') {
    stub = await startOpenAIStub({ delayMs: 40 });
    models.MODELS_JSON = JSON.stringify([
      { label: 'Stub model', value: 'stub', points: 0, contextWindow: 8192, maxOutput: 300, baseURL: stub.baseURL },
    ]);
    models.DEMO_MODEL = 'on';
    models.DEMO_MODEL_CHUNK_DELAY_MS = '5';
  }
  server = spawn(process.execPath, [main], {
    cwd: join(repo, 'apps/api'),
    env: {
      ...process.env,
      // test mode allows the test-only captcha whose answer is known (CAPTCHA_PROVIDER=fixed), and the
      // log SMS sender then shows the code in the UI (SMS_SHOW_CODE_IN_DEV): browser tests sign in by phone.
      NODE_ENV: 'test',
      CAPTCHA_PROVIDER: 'fixed',
      CAPTCHA_FIXED_ANSWER: 'TEST',
      SMS_PROVIDER: 'log',
      SMS_SHOW_CODE_IN_DEV: 'true',
      // One number gets codes for a phone login and then a binding within a test.
      SMS_RESEND_SECONDS: '1',
      SMS_IP_HOURLY_LIMIT: '1000',
      // Every browser test signs users up from 127.0.0.1: the per-IP sign-in limit is tested by the API suite.
      LOGIN_IP_PER_MINUTE: '10000',
      // New users have no power: the walks play the demo model free (its price is tested by the API suite).
      DEMO_MODEL_POINTS: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      EMBEDDED_DATABASE: process.env.EMBEDDED_DATABASE ?? 'stand-in',
      WEB_DIST_DIR: join(repo, 'apps/web/dist'),
      // The operator allowance for local model servers, so a custom model can point at the stub.
      CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
      ...models,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the app exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the app did not become healthy within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide('baseURL', baseURL);
  project.provide('stubURL', stub?.baseURL ?? '');
  return async () => {
    // The app writes its database's last snapshot as it stops: its data folder goes once it has exited
    // (a loaded machine can take seconds), or after 30 s, killed.
    const app = server;
    if (app && app.exitCode === null && app.signalCode === null) {
      const exited = new Promise((r) => app.once('exit', r));
      app.kill('SIGTERM');
      const timer = setTimeout(() => app.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    await stub?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
