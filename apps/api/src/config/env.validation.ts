import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
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
import { DEFAULT_DATA_DIR, DEFAULT_EMBEDDED_DATABASE, EMBEDDED_DATABASE_MODES, invalidSetting, MONGODB_URI_MESSAGE, MONGODB_URI_PATTERN } from './database-settings';
import { crossCheck } from './env.cross-checks';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const DEMO_MODEL_MODES = ['auto', 'on', 'off'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
// `outbox` keeps codes in memory for tests; `fixed` is a captcha whose answer is known (browser tests).
export const SMS_PROVIDERS = ['log', 'twilio', 'outbox'] as const;
export const CAPTCHA_PROVIDER_NAMES = ['svg', 'turnstile', 'fixed'] as const;
// demo: the offline demo picture generator; openai: an OpenAI-compatible images endpoint; off: no pictures.
export const IMAGES_PROVIDERS = ['demo', 'openai', 'off'] as const;
export const IMAGES_RESPONSE_FORMATS = ['b64_json', 'none'] as const;

const HTTP_URL = /^(https?:\/\/\S+|\/\S*)$/;

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^(true|false|1|0)$/i.test(value.trim()) ? /^(true|1)$/i.test(value.trim()) : value;

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

  // API processes sharing PORT (node:cluster): 1 runs one process; 0 one per CPU core. With more than
  // one, the first process keeps the embedded database (when MONGODB_URI is empty) and hands out
  // connections; the others serve them.
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(64)
  API_WORKERS = 1;

  // A MongoDB connection string; when empty the API starts an embedded database.
  @IsOptional()
  @Matches(MONGODB_URI_PATTERN, { message: MONGODB_URI_MESSAGE })
  MONGODB_URI?: string;

  @IsIn(EMBEDDED_DATABASE_MODES)
  EMBEDDED_DATABASE: (typeof EMBEDDED_DATABASE_MODES)[number] = DEFAULT_EMBEDDED_DATABASE;

  // Where the embedded database, generated secrets and other local state live.
  @IsString()
  @MinLength(1)
  DATA_DIR = DEFAULT_DATA_DIR;

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

  // Which proxies in front of the API may tell the client address (X-Forwarded-For), in Express's
  // words: `loopback`, `uniquelocal` (private networks, e.g. docker-compose's nginx), addresses or
  // CIDRs, comma-separated; or a hop count. Per-IP limits (sign-in, SMS, captcha) count that address.
  @Matches(/^(\d{1,2}|(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)(\s*,\s*(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?))*)$/, {
    message: 'TRUST_PROXY must be a hop count, or a comma-separated list of loopback, linklocal, uniquelocal, addresses or CIDRs',
  })
  TRUST_PROXY = 'loopback';

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

  // A JSON file listing the platform models (see README "Models"); read once at start.
  @IsOptional()
  @IsString()
  MODELS_FILE?: string;

  // The same list inline, as a JSON array; entries add to (or replace by value) those of MODELS_FILE.
  @IsOptional()
  @IsString()
  MODELS_JSON?: string;

  // The offline demo model: auto = offered only when no other model is configured.
  @IsIn(DEMO_MODEL_MODES)
  DEMO_MODEL: (typeof DEMO_MODEL_MODES)[number] = 'auto';

  // The most power one demo generation costs (scaled by the reply's share of its 400-token budget:
  // 10 to 25 for a usual reply): a little by default, so a new user sees spending, "not enough power"
  // and royalties on the defaults (0: free).
  @Transform(toInt)
  @IsInt()
  @Min(0)
  DEMO_MODEL_POINTS = 80;

  // Pause between the demo model's chunks, in milliseconds (it streams like a real model).
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(5000)
  DEMO_MODEL_CHUNK_DELAY_MS = 30;

  // Who draws story pictures (see README "Pictures").
  @IsIn(IMAGES_PROVIDERS)
  IMAGES_PROVIDER: (typeof IMAGES_PROVIDERS)[number] = 'demo';

  // The OpenAI-compatible images endpoint's base URL (…/v1), key and model, for IMAGES_PROVIDER=openai.
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'IMAGES_BASE_URL must be an http(s) URL' })
  IMAGES_BASE_URL?: string;

  @IsOptional()
  @IsString()
  IMAGES_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  IMAGES_MODEL?: string;

  // b64_json asks for the picture inline (response_format); none sends no response_format (gpt-image-1 refuses it).
  @IsIn(IMAGES_RESPONSE_FORMATS)
  IMAGES_RESPONSE_FORMAT: (typeof IMAGES_RESPONSE_FORMATS)[number] = 'b64_json';

  // A JSON object mapping the story sizes (512*768, ...) to the size the images endpoint accepts ("1024x1536").
  @IsOptional()
  @IsString()
  IMAGES_SIZE_MAP?: string;

  // Power one picture costs (its prompt included); 0 is free.
  @Transform(toInt)
  @IsInt()
  @Min(0)
  IMAGES_POINTS = 0;

  // A picture not drawn within this time fails (nothing charged). Below the ledger's 15-minute hold limit.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  IMAGES_TIMEOUT_SECONDS = 120;

  // The longest prompt sent to the images endpoint (DALL-E 2 takes 1000 characters, newer models more).
  @Transform(toInt)
  @IsInt()
  @Min(200)
  @Max(32000)
  IMAGES_PROMPT_MAX_CHARS = 1000;

  // A provider that sends no text for this long (before the first token, or between two) fails the
  // generation (PROVIDER_TIMEOUT; nothing charged).
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  PROVIDER_TIMEOUT_SECONDS = 60;

  // The AES-256-GCM key that encrypts custom models' API keys at rest: 32 bytes as 64 hex digits or
  // base64. Empty: one is generated once and kept in DATA_DIR (keep that file with the database).
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, {
    message: 'CUSTOM_MODEL_ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or as base64',
  })
  CUSTOM_MODEL_ENCRYPTION_KEY?: string;

  // Networks custom models may reach although they are loopback/private/link-local (e.g. a local
  // Ollama): comma-separated CIDRs or addresses, or * for any. Empty: only public addresses.
  @IsOptional()
  @IsString()
  CUSTOM_MODEL_ALLOWED_NETWORKS?: string;

  // How long "test connection" waits for a custom model's provider.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120)
  CUSTOM_MODEL_TEST_TIMEOUT_SECONDS = 15;

  // log: the code goes to the log (and, in development, to the UI); twilio: real SMS; outbox: tests only.
  @IsIn(SMS_PROVIDERS)
  SMS_PROVIDER: (typeof SMS_PROVIDERS)[number] = 'log';

  // With the log sender in development (or test) mode, the send-sms answer carries the code.
  @Transform(toBool)
  @IsBoolean()
  SMS_SHOW_CODE_IN_DEV = true;

  // Least seconds between two codes to one phone.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  SMS_RESEND_SECONDS = 60;

  // Codes per phone number per hour, and per client IP per hour.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SMS_PHONE_HOURLY_LIMIT = 10;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  SMS_IP_HOURLY_LIMIT = 30;

  @IsOptional()
  @Matches(/^AC[0-9a-fA-F]{32}$/, { message: 'TWILIO_ACCOUNT_SID must look like AC followed by 32 hex digits' })
  TWILIO_ACCOUNT_SID?: string;

  @IsOptional()
  @IsString()
  TWILIO_AUTH_TOKEN?: string;

  // A sender number in E.164 (+15005550006) or a Messaging Service SID (MG...).
  @IsOptional()
  @Matches(/^(\+\d{6,15}|MG[0-9a-fA-F]{32})$/, { message: 'TWILIO_FROM must be a +E.164 number or a Messaging Service SID' })
  TWILIO_FROM?: string;

  @Matches(/^https?:\/\/\S+$/, { message: 'TWILIO_API_BASE must be an http(s) URL' })
  TWILIO_API_BASE = 'https://api.twilio.com';

  // svg: a self-hosted image captcha; turnstile: Cloudflare Turnstile; fixed: tests only.
  @IsIn(CAPTCHA_PROVIDER_NAMES)
  CAPTCHA_PROVIDER: (typeof CAPTCHA_PROVIDER_NAMES)[number] = 'svg';

  @IsOptional()
  @IsString()
  TURNSTILE_SITE_KEY?: string;

  @IsOptional()
  @IsString()
  TURNSTILE_SECRET_KEY?: string;

  @Matches(/^https?:\/\/\S+$/, { message: 'TURNSTILE_VERIFY_URL must be an http(s) URL' })
  TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

  // The answer of the `fixed` captcha.
  @Matches(/^[A-Za-z0-9]{4,8}$/, { message: 'CAPTCHA_FIXED_ANSWER must be 4 to 8 letters or digits' })
  CAPTCHA_FIXED_ANSWER = 'TEST';

  // Wrong passwords in a row that lock a user name, and for how long.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_MAX_FAILURES = 5;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_LOCK_MINUTES = 15;

  // Sign-in attempts (both kinds, registrations included) per client IP per minute.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_IP_PER_MINUTE = 30;

  // Password hashes (argon2, about 25 ms of a core each) run at once per process; 0: libuv's pool less two
  // threads, at most the cores (auth/passwords.service.ts), so a burst of sign-ins leaves file reads, DNS
  // lookups and compression threads of the pool.
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(64)
  PASSWORD_HASH_CONCURRENCY = 0;

  // Generations (sends) one user may start per minute, over all stories.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  GENERATION_USER_PER_MINUTE = 20;

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
    const sentences = errors.map((e) => invalidSetting(e.property, e.value, Object.values(e.constraints ?? {}).join('; ')));
    throw new ConfigError(sentences.join('\n'));
  }
  const problems = crossCheck(env);
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return env;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
