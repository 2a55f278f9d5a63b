import { ErrorCode } from '@taleloom/contracts';
import type { NextFunction, Request, Response } from 'express';
import { AppException } from './app-exception';

// Body-parser failures become coded errors here; Nest would otherwise turn them into a bare 400 or,
// for an unknown Content-Encoding, a gzip body that is not gzip or too many form fields, a 500.
export function bodyParserErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const type = (err as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return next(new AppException(ErrorCode.INVALID_JSON));
    case 'entity.too.large':
    case 'parameters.too.many':
      return next(new AppException(ErrorCode.PAYLOAD_TOO_LARGE));
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return next(new AppException(ErrorCode.UNSUPPORTED_MEDIA_TYPE));
    default:
      // Anything else that went wrong while reading the body (a broken compressed stream, an aborted
      // or miscounted request) is the client's: the exception filter maps its 4xx status.
      next(err);
  }
}
