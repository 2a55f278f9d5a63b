import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { DatabaseKind } from '@taleloom/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import type { DestinationStream } from 'pino';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import type { TestFunction } from 'vitest';
import { createApp } from '../src/app.factory';
import { AppConfig, resolveConfig } from '../src/config/app-config';
import { validateEnv } from '../src/config/env.validation';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  connection: Connection;
  /** The database of this app; pass it to another createTestApp to "restart" on the same data. */
  databaseName: string;
  /** Empties every collection: call it in beforeEach for a clean database per test. */
  clean(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The one way an API test suite gets the whole app on a clean database of its own,
 * on the server that test/global-setup.ts started. `logStream` receives the app's log lines (JSON,
 * one per write) instead of stdout: pass a LOG_LEVEL too, the default here is silent.
 */
export async function createTestApp(
  overrides: Record<string, string> = {},
  options: {
    databaseName?: string;
    mapUri?: (uri: string) => string;
    /** Where the app's log lines go (with a LOG_LEVEL override: the default is silent). */
    logStream?: DestinationStream;
  } = {},
): Promise<TestApp> {
  const baseUri = process.env.TEST_DATABASE_URI;
  if (!baseUri) throw new Error('TEST_DATABASE_URI is not set: run API tests through vitest (global-setup.ts)');
  // mapUri: reach the server another way (e.g. through a TCP proxy a fault test cuts).
  const url = new URL(options.mapUri ? options.mapUri(baseUri) : baseUri);
  const databaseName = options.databaseName ?? `t_${randomBytes(6).toString('hex')}`;
  url.pathname = `/${databaseName}`;
  const env = validateEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'taleloom-test-')),
    JWT_SECRET: TEST_JWT_SECRET,
    WEB_DIST_DIR: join(tmpdir(), 'no-web-dist'),
    // Suites sign up many users and send many turns from one address within a minute; the suite
    // that tests these limits (security-rate-limits) sets its own.
    LOGIN_IP_PER_MINUTE: '100000',
    GENERATION_USER_PER_MINUTE: '100000',
    // Pictures would add requests to the model stub after every accepted turn: suites that test them turn them on.
    IMAGES_PROVIDER: 'off',
    // Suites play the demo model with new users (no power) to test play itself; its price on the
    // defaults is tested by demo-price.e2e-spec, which passes the default.
    DEMO_MODEL_POINTS: '0',
    ...overrides,
  });
  const config = resolveConfig(env);
  // nestjs-pino keeps the first app's logger for the lines written outside a request (a turn's warnings)
  // in a module variable; the files of a test worker share modules, so each app starts without it.
  __resetOutOfContextForTests();
  const app = await createApp(config, {
    uri: url.toString(),
    kind: (process.env.TEST_DATABASE_KIND as DatabaseKind) ?? 'uri',
    stop: async () => undefined,
  }, { logStream: options.logStream });
  const connection = app.get<Connection>(getConnectionToken());
  return {
    app,
    config,
    connection,
    databaseName,
    clean: async () => {
      const collections = await connection.db!.collections();
      await Promise.all(collections.map((c) => c.deleteMany({})));
    },
    close: async () => {
      await connection.db?.dropDatabase().catch(() => undefined);
      await app.close();
    },
  };
}

/** True when tests run on the offline stand-in, which lacks some MongoDB guarantees. */
export const onStandIn = () => process.env.TEST_DATABASE_KIND === 'stand-in';

/** In the title of every test that only a real MongoDB can prove; `pnpm test`'s summary counts them (scripts/test-summary.mjs). */
export const REAL_MONGODB_TAG = '[real MongoDB]';

/**
 * A test that relies on what only a real MongoDB gives (unique indexes, transactions): tagged, and
 * skipped on the stand-in. TEST_MONGODB_URI runs it (docs/testing.md).
 */
export function itOnRealMongoDB(title: string, fn: TestFunction, timeout?: number): void {
  (onStandIn() ? it.skip : it)(`${title} ${REAL_MONGODB_TAG}`, fn, timeout);
}
