import { ErrorCode } from '@taleloom/contracts';
import { AppException } from '../../common/app-exception';

/** A file of the right type that cannot be read; the reason goes to `details` for API users. */
export function parseFailed(reason: string): AppException {
  return new AppException(ErrorCode.FILE_PARSE_FAILED, [{ field: 'file', constraints: [reason] }]);
}
