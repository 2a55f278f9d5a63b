import { signUp, type TestUser } from '../story-factories';
import { createTestApp, type TestApp } from '../test-app';

export interface AppSuite {
  t: TestApp;
  alice: TestUser;
  bob: TestUser;
}

/** Registers the hooks of a suite with no model: one app for the file; per test a clean database, alice and bob. */
export function appSuite(): AppSuite {
  const s = {} as AppSuite;
  beforeAll(async () => {
    s.t = await createTestApp();
  });
  beforeEach(async () => {
    await s.t.clean();
    s.alice = await signUp(s.t, 'alice');
    s.bob = await signUp(s.t, 'bob');
  });
  afterAll(() => s.t.close());
  return s;
}
