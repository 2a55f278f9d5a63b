import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ErrorCode, UPLOAD_MAX_BYTES } from '@taleloom/contracts';
import type { Request, Response } from 'express';
import multer from 'multer';
import { from, type Observable, switchMap } from 'rxjs';
import { AppException } from '../common/app-exception';

// Memory storage: the file is parsed at once and never written to disk. One file, a few small fields.
const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 8, fieldSize: 1024, parts: 10, headerPairs: 100 },
}).single('file');

/** Reads the multipart field `file` with multer and turns its failures into coded errors. */
@Injectable()
export class UploadInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return from(
      new Promise<void>((resolve, reject) => {
        upload(req, res, (err: unknown) => (err ? reject(toAppException(err)) : resolve()));
      }),
    ).pipe(switchMap(() => next.handle()));
  }
}

function toAppException(err: unknown): AppException {
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return new AppException(ErrorCode.FILE_TOO_LARGE);
    return new AppException(ErrorCode.FILE_UPLOAD_FAILED, [{ field: err.field ?? 'file', constraints: [err.message] }]);
  }
  return new AppException(ErrorCode.FILE_UPLOAD_FAILED);
}
