import { ErrorCode } from '@taleloom/contracts/error-code';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai/error';

export interface ClassifiedFailure {
  code: ErrorCode;
  /** The provider's HTTP status, when it answered. */
  status?: number;
  detail: string;
}

const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET']);
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
// Providers say "model not found" in many ways: OpenAI `model_not_found`, DeepSeek "Model Not Exist",
// Ollama "model 'x' not found", OpenRouter "x is not a valid model ID".
const MODEL_MISSING = /model[^]{0,80}(not[ _]?(found|exist)|does not exist|invalid|unknown|not a valid)|(invalid|unknown|unsupported)[ _]model|no such model/i;

/** The errors and their causes, outermost first. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e && out.length < 8; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

/**
 * What went wrong calling a user's own model, as the user can act on it: a refused address, a host
 * that is not there, an address that is not an OpenAI-compatible API, a rejected key, an unknown
 * model, a timeout, or another provider error (with its status).
 */
export function classifyCustomModelFailure(error: unknown): ClassifiedFailure {
  const all = chain(error);
  const detail = all.map((e) => (e instanceof Error ? e.message : String(e))).join(': ').slice(0, 500);
  if (all.some((e) => (e as { code?: unknown }).code === ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED)) {
    return { code: ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED, detail };
  }
  if (error instanceof APIConnectionTimeoutError) return { code: ErrorCode.CUSTOM_MODEL_TIMEOUT, detail };
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const said = `${error.code ?? ''} ${error.message}`;
    if (status === 401 || status === 403) return { code: ErrorCode.CUSTOM_MODEL_KEY_REJECTED, status, detail };
    if ((status === 404 || status === 400 || status === 422) && MODEL_MISSING.test(said)) {
      return { code: ErrorCode.CUSTOM_MODEL_MODEL_MISSING, status, detail };
    }
    if (status === 404 || status === 405) return { code: ErrorCode.CUSTOM_MODEL_ADDRESS_WRONG, status, detail };
    if (status === 408 || status === 504) return { code: ErrorCode.CUSTOM_MODEL_TIMEOUT, status, detail };
    return { code: ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR, status, detail };
  }
  const codes = all.map((e) => String((e as { code?: unknown }).code ?? ''));
  if (codes.some((c) => TIMEOUT.has(c))) return { code: ErrorCode.CUSTOM_MODEL_TIMEOUT, detail };
  if (codes.some((c) => UNREACHABLE.has(c) || c.startsWith('ERR_TLS') || c.includes('CERT'))) {
    return { code: ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE, detail };
  }
  if (error instanceof APIConnectionError) return { code: ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE, detail };
  // A 200 that is not the API's JSON (an HTML page at that address) fails to parse.
  if (all.some((e) => e instanceof SyntaxError)) return { code: ErrorCode.CUSTOM_MODEL_ADDRESS_WRONG, detail };
  return { code: ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR, detail };
}
