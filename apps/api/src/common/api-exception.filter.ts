import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ErrorCode, type ApiError } from '@taleloom/contracts';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../database/database-errors';
import { AppException, httpStatusOf } from './app-exception';
import { errorMessage } from './error-messages';
import { requestLanguage } from './request-language';

/** Turns every error into `{status:'error', code, message}` with the right HTTP status; no stack reaches users. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const app = this.toAppException(exception);
    const status = httpStatusOf(app.code);
    // An unreachable database is one line in the log, not a stack per request.
    if (app.code === ErrorCode.DATABASE_UNAVAILABLE) {
      this.logger.warn(`database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
    } else if (status >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    if (res.headersSent) {
      res.end();
      return;
    }
    const language = requestLanguage(req);
    const fields = app.details?.map((d) => `${d.field} (${d.constraints.join(', ')})`).join('; ') ?? '';
    const body: ApiError = {
      status: 'error',
      code: app.code,
      message: errorMessage(app.code, language, { fields, ...app.params }),
      ...(app.details ? { details: app.details } : {}),
      ...(Object.keys(app.params).length ? { params: app.params } : {}),
    };
    if (app.code === ErrorCode.ACCOUNT_LOCKED || app.code === ErrorCode.SMS_RESEND_TOO_SOON) {
      const seconds = Number(app.params.retryAfterSeconds);
      if (Number.isFinite(seconds) && seconds > 0) res.setHeader('Retry-After', String(Math.ceil(seconds)));
    }
    res.status(status).json(body);
  }

  private toAppException(exception: unknown): AppException {
    if (exception instanceof AppException) return exception;
    if (isDatabaseUnavailable(exception)) return new AppException(ErrorCode.DATABASE_UNAVAILABLE);
    if (exception instanceof HttpException) {
      switch (exception.getStatus()) {
        case 400:
          return new AppException(ErrorCode.VALIDATION_FAILED);
        case 401:
          return new AppException(ErrorCode.UNAUTHORIZED);
        case 403:
          return new AppException(ErrorCode.FORBIDDEN);
        case 404:
          return new AppException(ErrorCode.ROUTE_NOT_FOUND);
        case 413:
          return new AppException(ErrorCode.PAYLOAD_TOO_LARGE);
        case 429:
          return new AppException(ErrorCode.TOO_MANY_REQUESTS);
        default:
          return new AppException(ErrorCode.INTERNAL_ERROR);
      }
    }
    return new AppException(ErrorCode.INTERNAL_ERROR);
  }
}
