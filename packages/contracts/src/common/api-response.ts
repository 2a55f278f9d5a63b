/** Languages the product speaks; the web stores the choice in localStorage `lang`. */
export const SUPPORTED_LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/** Success envelope of every JSON answer. */
export interface ApiSuccess<T> {
  status: 'success' | 'ok';
  message: string;
  data: T;
}

/** Error envelope of every failed answer; `details` lists field problems for VALIDATION_FAILED. */
export interface ApiError {
  status: 'error';
  code: string;
  message: string;
  details?: FieldProblem[];
  /** Values the message was built with (e.g. `minutes` of a lockout), for clients' own translations. */
  params?: Record<string, string | number>;
}

/** One field that failed validation. */
export interface FieldProblem {
  field: string;
  constraints: string[];
  /** The names of the failed rules (e.g. `isNotEmpty`, `isIn`), for clients' own translations of `constraints`. */
  rules?: string[];
}

export type ApiResponse<T> = ApiSuccess<T> | ApiError;

/** Health check answer. */
export interface HealthData {
  database: 'up' | 'down';
  databaseKind: DatabaseKind;
  uptimeSeconds: number;
  version: string;
}

/** Which database the API runs on: a configured URI, mongodb-memory-server or the offline stand-in. */
export type DatabaseKind = 'uri' | 'memory-server' | 'stand-in';
