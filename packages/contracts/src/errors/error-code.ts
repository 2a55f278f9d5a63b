/**
 * Every error the API can answer. The API sends `{status:'error', code, message}`;
 * the web app shows its own translation of `code` (locale key `errors.<code>`).
 */
export enum ErrorCode {
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  INVALID_JSON = 'INVALID_JSON',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNAUTHORIZED = 'UNAUTHORIZED',
  TOKEN_INVALID = 'TOKEN_INVALID',
  TOKEN_EXPIRED = 'TOKEN_EXPIRED',
  WRONG_PASSWORD = 'WRONG_PASSWORD',
  USER_NOT_FOUND = 'USER_NOT_FOUND',
  LOGIN_TYPE_UNSUPPORTED = 'LOGIN_TYPE_UNSUPPORTED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  ROUTE_NOT_FOUND = 'ROUTE_NOT_FOUND',
  TOO_MANY_REQUESTS = 'TOO_MANY_REQUESTS',
  NOT_ENOUGH_POWER = 'NOT_ENOUGH_POWER',
  /** The chosen model is not offered (any more). */
  MODEL_NOT_FOUND = 'MODEL_NOT_FOUND',
  /** The story is generating; wait for it to finish. */
  GENERATION_IN_PROGRESS = 'GENERATION_IN_PROGRESS',
  /** Sends on one story are at most one per second. */
  SEND_TOO_FAST = 'SEND_TOO_FAST',
  /** The model provider failed or broke off; nothing was charged. */
  PROVIDER_ERROR = 'PROVIDER_ERROR',
  /** The model provider took too long to answer; nothing was charged. */
  PROVIDER_TIMEOUT = 'PROVIDER_TIMEOUT',
  ALREADY_CHECKED_IN = 'ALREADY_CHECKED_IN',
  /** The story does not exist, or it is someone else's and not public. */
  STORY_NOT_FOUND = 'STORY_NOT_FOUND',
  /** An update body carried no field to change. */
  NOTHING_TO_UPDATE = 'NOTHING_TO_UPDATE',
  DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
}

/** Every code, for exhaustive checks in tests and locale files. */
export const ALL_ERROR_CODES: readonly ErrorCode[] = Object.values(ErrorCode);
