import { ErrorCode } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException } from './app-exception';

/** True for a 24-digit hex id, the form every stored document's id takes in the API. */
export const isHexId = (id: unknown): id is string => typeof id === 'string' && /^[0-9a-f]{24}$/i.test(id);

/** A malformed id is answered like an unknown one (404 `notFound`), never a 500. */
export function toObjectId(id: string, notFound: ErrorCode = ErrorCode.STORY_NOT_FOUND): Types.ObjectId {
  if (!isHexId(id)) throw new AppException(notFound);
  return new Types.ObjectId(id);
}
