import { ErrorCode } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException } from './app-exception';

/** True for a 24-digit hex id, the form every stored document's id takes in the API. */
export const isHexId = (id: unknown): id is string => typeof id === 'string' && /^[0-9a-f]{24}$/i.test(id);

/** A malformed id is answered like an unknown one (404 `notFound`), never a 500. */
export function toObjectId(id: string, notFound: ErrorCode = ErrorCode.STORY_NOT_FOUND): Types.ObjectId {
  if (!isHexId(id)) throw new AppException(notFound);
  const bytes = Buffer.alloc(12);
  bytes.write(id, 'hex');
  return new Types.ObjectId(bytes);
}

/**
 * The same id in a buffer of its own. The 12 bytes of an ObjectId read from the database (or made
 * from hex) are a view of one of Node's shared 8 KB buffer slabs (Buffer.allocUnsafe): an id kept for
 * long (a cache entry, a stream's whole life) keeps the whole slab from being freed, and every other
 * small buffer that was cut from it. `toObjectId` makes its ids this way.
 */
export function ownObjectId(id: Types.ObjectId): Types.ObjectId {
  const bytes = Buffer.alloc(12);
  bytes.set(id.id);
  return new Types.ObjectId(bytes);
}
