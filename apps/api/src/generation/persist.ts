import type { Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '../common/database-errors';

// How long a finished job keeps trying to store its outcome while the database is away.
const PERSIST_RETRY_MS = 60_000;

/**
 * Runs one write of a job's outcome, again and again while the database is unreachable (up to a
 * minute): a database that drops and comes back loses no finished job. `write(retry)` is told whether
 * an attempt came before it (a retry may take over what that attempt left half-done).
 */
export async function persist<T>(logger: Logger, what: string, write: (retry: boolean) => Promise<T>): Promise<T> {
  const deadline = Date.now() + PERSIST_RETRY_MS;
  for (let wait = 200, retry = false; ; wait = Math.min(wait * 2, 2000), retry = true) {
    try {
      return await write(retry);
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + wait > deadline) throw error;
      logger.warn(`${what}: the database is unavailable, trying again in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
