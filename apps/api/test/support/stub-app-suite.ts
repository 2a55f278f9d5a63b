import { signUp, type TestUser } from '../story-factories';
import { createTestApp, type TestApp } from '../test-app';
import { startOpenAIStub, type OpenAIStub } from './openai-stub';
import { listenOnLoopback } from './play-helpers';

/** What a suite on the OpenAI stub works with; filled by its hooks, read inside tests. */
export interface StubAppSuite {
  t: TestApp;
  stub: OpenAIStub;
  /** The app's loopback URL (streams are read over real HTTP). */
  base: string;
  alice: TestUser;
  /** Signed up unless `bob: false`. */
  bob: TestUser;
}

export interface StubAppOptions {
  /** The app's settings, given the stub (its baseURL for MODELS_JSON). */
  env: (stub: OpenAIStub) => Record<string, string>;
  /** Waits for the app's background work (runners); before closing, and before cleaning with `drainFirst`. */
  drain: (t: TestApp) => Promise<unknown>;
  drainFirst?: boolean;
  bob?: boolean;
  /** More of each test's start, after the users signed up (stub answers, power grants). */
  each?: (s: StubAppSuite) => Promise<unknown> | void;
}

/**
 * Registers the hooks of a suite that plays on the OpenAI stub: one stub and one app (listening on
 * loopback) for the file; per test a clean database, a reset stub and fresh users.
 */
export function stubAppSuite(options: StubAppOptions): StubAppSuite {
  const s = {} as StubAppSuite;
  beforeAll(async () => {
    s.stub = await startOpenAIStub();
    s.t = await createTestApp(options.env(s.stub));
    s.base = await listenOnLoopback(s.t);
  });
  beforeEach(async () => {
    if (options.drainFirst) await options.drain(s.t);
    await s.t.clean();
    s.stub.reset();
    s.alice = await signUp(s.t, 'alice');
    if (options.bob !== false) s.bob = await signUp(s.t, 'bob');
    await options.each?.(s);
  });
  afterAll(async () => {
    await options.drain(s.t);
    await s.t.close();
    await s.stub.close();
  });
  return s;
}
