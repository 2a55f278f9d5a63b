import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsTimeZone,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const EMBEDDED_DATABASE_MODES = ['auto', 'memory-server', 'stand-in'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const HTTP_URL = /^(https?:\/\/\S+|\/\S*)$/;

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;

/** Every environment variable the API reads; `.env.example` documents each one. */
export class EnvironmentVariables {
  @IsIn(NODE_ENVS)
  NODE_ENV: (typeof NODE_ENVS)[number] = 'production';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  // A MongoDB connection string; when empty the API starts an embedded database.
  @IsOptional()
  @Matches(/^mongodb(\+srv)?:\/\/.+/, { message: 'MONGODB_URI must start with mongodb:// or mongodb+srv://' })
  MONGODB_URI?: string;

  @IsIn(EMBEDDED_DATABASE_MODES)
  EMBEDDED_DATABASE: (typeof EMBEDDED_DATABASE_MODES)[number] = 'auto';

  // Where the embedded database, generated secrets and other local state live.
  @IsString()
  @MinLength(1)
  DATA_DIR = '.data';

  // At least 32 characters; when empty, one is generated and kept in DATA_DIR.
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters long' })
  JWT_SECRET?: string;

  @Matches(/^\d+[smhd]?$/, { message: 'JWT_EXPIRES_IN must be a number of seconds or a span like 7d, 12h, 30m' })
  JWT_EXPIRES_IN = '7d';

  // Comma-separated origins allowed by CORS; empty means same origin only.
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  // The built web app to serve on the same port; empty or missing folder means API only.
  @IsOptional()
  @IsString()
  WEB_DIST_DIR?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES = 1_048_576;

  // The IANA time zone whose calendar day bounds the daily check-in.
  @IsTimeZone({ message: 'CHECKIN_TIME_ZONE must be an IANA time zone such as Asia/Shanghai or UTC' })
  CHECKIN_TIME_ZONE = 'Asia/Shanghai';

  // Community links on the stories screen (GET /api/site-config); empty hides the button.
  @IsOptional()
  @IsString()
  @MaxLength(32)
  SITE_QQ_GROUP_NUMBER?: string;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'SITE_QQ_GROUP_IMAGE_URL must be an http(s) URL or a path starting with /' })
  SITE_QQ_GROUP_IMAGE_URL?: string;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'SITE_QQ_GROUP_LINK must be an http(s) URL or a path starting with /' })
  SITE_QQ_GROUP_LINK?: string;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'SITE_DISCORD_URL must be an http(s) URL or a path starting with /' })
  SITE_DISCORD_URL?: string;

  // An activity announced in a modal on the stories screen; empty title means none.
  @IsOptional()
  @IsString()
  @MaxLength(200)
  SITE_ACTIVITY_TITLE?: string;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'SITE_ACTIVITY_IMAGE_URL must be an http(s) URL or a path starting with /' })
  SITE_ACTIVITY_IMAGE_URL?: string;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'SITE_ACTIVITY_LINK must be an http(s) URL or a path starting with /' })
  SITE_ACTIVITY_LINK?: string;
}

/** Validates the environment once at start; a bad variable stops start-up with a sentence naming it. */
export function validateEnv(raw: Record<string, unknown>): EnvironmentVariables {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== ''));
  const env = plainToInstance(EnvironmentVariables, cleaned, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  if (errors.length > 0) {
    const sentences = errors.map((e) => {
      const reasons = Object.values(e.constraints ?? {}).join('; ');
      return `Configuration variable ${e.property} is invalid (got ${JSON.stringify(e.value)}): ${reasons}.`;
    });
    throw new ConfigError(sentences.join('\n'));
  }
  return env;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
