import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseEncryptionKey } from './encryption-key';
import { loadPlatformModels, type PlatformModel } from './platform-models';
import { EnvironmentVariables } from './env.validation';

/** Resolved configuration: validated variables plus what is derived from them. */
export interface AppConfig {
  env: EnvironmentVariables;
  dataDir: string;
  jwtSecret: string;
  corsOrigins: string[];
  webDistDir: string | null;
  /** Platform models in menu order; the first is the default. */
  models: PlatformModel[];
  /** The AES-256-GCM key for custom models' API keys (configured, or generated once into DATA_DIR). */
  customModelKey: Buffer;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export function resolveConfig(env: EnvironmentVariables, cwd = process.cwd()): AppConfig {
  const dataDir = isAbsolute(env.DATA_DIR) ? env.DATA_DIR : resolve(cwd, env.DATA_DIR);
  const webDistDir = resolveWebDist(env.WEB_DIST_DIR, cwd);
  return {
    env,
    dataDir,
    jwtSecret: env.JWT_SECRET ?? loadOrCreateSecret(dataDir, 'jwt-secret'),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    webDistDir,
    models: loadPlatformModels(env, cwd),
    customModelKey: parseEncryptionKey(env.CUSTOM_MODEL_ENCRYPTION_KEY ?? loadOrCreateSecret(dataDir, 'custom-model-key', 32)),
  };
}

function resolveWebDist(configured: string | undefined, cwd: string): string | null {
  const candidate = configured
    ? resolve(cwd, configured)
    : resolve(__dirname, '..', '..', '..', 'web', 'dist');
  return existsSync(join(candidate, 'index.html')) ? candidate : null;
}

// The embedded default needs no keys: a secret is generated once and kept beside the data.
// Losing it makes stored custom model keys unreadable (their owners then type them again).
function loadOrCreateSecret(dataDir: string, name: string, bytes = 48): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(bytes).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
