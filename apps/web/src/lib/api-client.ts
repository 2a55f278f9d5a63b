import type { ApiError, FieldProblem } from '@taleloom/contracts';
import { takeEarlyRead } from './early-reads';
import { getCurrentLanguage } from './i18n';
import { clearSession, getToken } from './storage';

export const API_BASE = '/api';

/** Codes the client itself produces when no server code is available (translated like server codes). */
export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  badResponse: 'BAD_RESPONSE',
  unknown: 'UNKNOWN',
} as const;

export class ApiClientError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: FieldProblem[];
  /** Values of the server's message (e.g. `minutes` of a lockout), for our own translation. */
  readonly params?: Record<string, string | number>;

  constructor(
    status: number,
    code: string,
    message: string,
    details?: FieldProblem[],
    params?: Record<string, string | number>,
  ) {
    super(message);
    this.name = 'ApiClientError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.params = params;
  }
}

export function isApiClientError(error: unknown): error is ApiClientError {
  return error instanceof ApiClientError;
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The app registers what a 401 does (navigate to /login); lib stays free of the router. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

/** A 401 anywhere (also on a stream): the session is cleared and the app goes to /login. */
export function notifyUnauthorized(): void {
  clearSession();
  unauthorizedHandler?.();
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

const METHODS_WITH_LANGUAGE: ReadonlySet<Method> = new Set(['POST', 'PUT', 'PATCH']);

/** The URL of an API call (`/api/...?query`), as apiRequest asks for it. */
export function buildUrl(path: string, query?: Query): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function encodeBody(method: Method, body: unknown, headers: Headers): BodyInit | undefined {
  if (body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams) return body;
  const withLanguage = METHODS_WITH_LANGUAGE.has(method);
  if (body === undefined && !withLanguage) return undefined;
  headers.set('Content-Type', 'application/json');
  if (withLanguage && (body === undefined || isPlainObject(body))) {
    return JSON.stringify({ ...(body ?? {}), language: getCurrentLanguage() });
  }
  return JSON.stringify(body);
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function asErrorEnvelope(body: unknown): Partial<ApiError> {
  return isPlainObject(body) ? (body as Partial<ApiError>) : {};
}

/** One fetch for every API call: bearer token, `language` in JSON bodies, envelope checks, 401 logout. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers = new Headers({ Accept: 'application/json', ...options.headers });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const body = encodeBody(method, options.body, headers);

  const url = buildUrl(path, options.query);
  // A read the page started before the app rendered (early-reads.ts) answers once instead of a new one.
  const early = method === 'GET' && !options.headers ? takeEarlyRead(url, token) : null;
  let response: Response;
  try {
    response = await (early ?? fetch(url, { method, headers, body, signal: options.signal }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiClientError(0, CLIENT_ERROR_CODES.network, error instanceof Error ? error.message : String(error));
  }

  const parsed = await parseBody(response);
  const envelope = asErrorEnvelope(parsed);

  if (response.status === 401) {
    notifyUnauthorized();
    throw new ApiClientError(401, envelope.code ?? 'UNAUTHORIZED', envelope.message ?? response.statusText, envelope.details);
  }
  if (!response.ok || envelope.status === 'error') {
    const code = envelope.code ?? (typeof parsed === 'string' || parsed === undefined ? CLIENT_ERROR_CODES.badResponse : CLIENT_ERROR_CODES.unknown);
    throw new ApiClientError(response.status, code, envelope.message ?? response.statusText, envelope.details, envelope.params);
  }
  return parsed as T;
}

export const apiClient = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
