import { ALL_ERROR_CODES } from '@taleloom/contracts';
import type { Response } from 'supertest';

/** What a stack trace or an internal detail looks like in an answer. */
export const LEAK = /\bat [\w.<>]+ \(|\(?\/[\w./-]+\.(ts|js):\d+|node_modules|\b(TypeError|ReferenceError|RangeError|SyntaxError|CastError|MongoServerError|ValidationError)\b/;

/**
 * An answer is never a 5xx here, an error is always the coded envelope `{status:'error', code, message}`
 * with a known code, and nothing in it looks like a stack trace. Throws with `label` (the request) otherwise.
 *
 * One coded 5xx is clean: 503 DATABASE_UNAVAILABLE while the database really was away (it blinks on a
 * loaded machine, and says nothing about the input). `databaseWasDown` answers whether it was, from what
 * the driver saw while the request ran (see database-outages.ts): the same code answered while the
 * database was up (a retry loop that gave up, a query an input made fail) is reported.
 */
export async function expectCleanError(res: Response, label: string, databaseWasDown: () => boolean | Promise<boolean>): Promise<void> {
  const unavailable = res.status === 503 && (res.body as { code?: unknown } | undefined)?.code === 'DATABASE_UNAVAILABLE';
  const blink = unavailable && (await databaseWasDown());
  const problem = unavailable && !blink ? '503 DATABASE_UNAVAILABLE while the database was up' : cleanErrorProblem(res, blink ? [503] : []);
  if (problem) throw new Error(`${label}: ${problem}\n${res.status} ${res.text?.slice(0, 500)}`);
}

export function cleanErrorProblem(res: Response, allowed5xx: number[] = []): string | null {
  if (res.status >= 500 && !allowed5xx.includes(res.status)) return 'a 5xx';
  if (LEAK.test(res.text ?? '')) return 'looks like a stack trace or an internal detail';
  if (res.status < 400) return null;
  const body = res.body as { status?: unknown; code?: unknown; message?: unknown } | undefined;
  if (body?.status !== 'error' || typeof body.message !== 'string') return 'not the error envelope';
  if (!ALL_ERROR_CODES.includes(body.code as never)) return `unknown code ${String(body.code)}`;
  return null;
}
