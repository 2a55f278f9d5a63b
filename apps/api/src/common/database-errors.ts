import { mongo } from 'mongoose';

// Server answers that mean "not now" (a failover, a shutdown), not "wrong request".
const TRANSIENT_SERVER_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * True when an error means the database cannot be reached right now (connection refused or reset,
 * no server to select, a pool cleared by a failure, a failover): the request gets 503
 * DATABASE_UNAVAILABLE and may be retried, as opposed to a bug (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (
      e instanceof mongo.MongoNetworkError || // also timeouts and cleared pools
      e instanceof mongo.MongoServerSelectionError ||
      e instanceof mongo.MongoNotConnectedError ||
      e instanceof mongo.MongoTopologyClosedError ||
      e instanceof mongo.MongoServerClosedError ||
      e instanceof mongo.MongoClientClosedError
    ) {
      return true;
    }
    if (e instanceof mongo.MongoServerError && TRANSIENT_SERVER_CODES.has(Number(e.code))) return true;
    const { name, message } = e as { name?: unknown; message?: unknown };
    // Mongoose's own wrappers: its server-selection error and a command buffered past bufferTimeoutMS.
    if (name === 'MongooseServerSelectionError') return true;
    if (name === 'MongooseError' && typeof message === 'string' && /buffering timed out/.test(message)) return true;
  }
  return false;
}

/**
 * True when a write failed on an _id or unique key that is taken: code 11000 on MongoDB; the offline
 * stand-in answers an insert (or upsert) of a taken _id with code 1 and "Duplicate key error".
 */
export function isDuplicateKey(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 11000 || (typeof message === 'string' && /duplicate key/i.test(message));
}
