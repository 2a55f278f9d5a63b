// The settings the database bootstrap reads, with their defaults: env.validation.ts validates them with
// the rest, and `verify:ledger` (a command that needs only these) reads them here without loading the
// validation's libraries.
export const EMBEDDED_DATABASE_MODES = ['auto', 'memory-server', 'stand-in'] as const;
export type EmbeddedDatabaseMode = (typeof EMBEDDED_DATABASE_MODES)[number];
export const DEFAULT_EMBEDDED_DATABASE: EmbeddedDatabaseMode = 'auto';
export const DEFAULT_DATA_DIR = '.data';
export const MONGODB_URI_PATTERN = /^mongodb(\+srv)?:\/\/.+/;
export const MONGODB_URI_MESSAGE = 'MONGODB_URI must start with mongodb:// or mongodb+srv://';

export interface DatabaseSettings {
  MONGODB_URI?: string;
  EMBEDDED_DATABASE: EmbeddedDatabaseMode;
  DATA_DIR: string;
}

/** A wrong setting in one sentence, as the app's start-up says it (validateEnv) and `verify:ledger` too. */
export const invalidSetting = (name: string, value: unknown, reason: string): string =>
  `Configuration variable ${name} is invalid (got ${JSON.stringify(value)}): ${reason}.`;

/** A wrong database setting. */
export class DatabaseSettingError extends Error {
  constructor(name: string, value: string, reason: string) {
    super(invalidSetting(name, value, reason));
  }
}

/** The three settings from `env` as the app reads them (an empty one is unset, as there). */
export function databaseSettings(env: NodeJS.ProcessEnv): DatabaseSettings {
  const uri = env.MONGODB_URI || undefined;
  if (uri !== undefined && !MONGODB_URI_PATTERN.test(uri)) throw new DatabaseSettingError('MONGODB_URI', uri, MONGODB_URI_MESSAGE);
  const mode = env.EMBEDDED_DATABASE || DEFAULT_EMBEDDED_DATABASE;
  if (!(EMBEDDED_DATABASE_MODES as readonly string[]).includes(mode)) {
    throw new DatabaseSettingError('EMBEDDED_DATABASE', mode, `EMBEDDED_DATABASE must be one of the following values: ${EMBEDDED_DATABASE_MODES.join(', ')}`);
  }
  return { MONGODB_URI: uri, EMBEDDED_DATABASE: mode as EmbeddedDatabaseMode, DATA_DIR: env.DATA_DIR || DEFAULT_DATA_DIR };
}
