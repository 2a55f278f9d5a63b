import type { DatabaseHandle } from '../src/database/embedded-database';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __TEST_DATABASE__?: DatabaseHandle }).__TEST_DATABASE__?.stop();
}
