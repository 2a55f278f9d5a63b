import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ErrorCode, type ApiError } from '@taleloom/contracts';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from './database-errors';
import { AppException, httpStatusOf, RetriesExhausted } from './app-exception';
import { errorMessage } from './error-messages';
import { requestLanguage } from './request-language';

// The failures of a user's own model (answered 502/504: the app works, their model does not).
const USERS_OWN_MODEL: ReadonlySet<ErrorCode> = new Set([
  ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE,
  ErrorCode.CUSTOM_MODEL_ADDRESS_WRONG,
  ErrorCode.CUSTOM_MODEL_TIMEOUT,
  ErrorCode.CUSTOM_MODEL_KEY_REJECTED,
  ErrorCode.CUSTOM_MODEL_MODEL_MISSING,
  ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR,
]);

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
    if (exception instanceof RetriesExhausted) {
      this.logger.warn(`gave up after repeated write conflicts: ${exception.what}`);
    } else if (app.code === ErrorCode.DATABASE_UNAVAILABLE) {
      this.logger.warn(`database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
    } else if (USERS_OWN_MODEL.has(app.code)) {
      // A user's own model that cannot be used (their address, key or provider): their mistake, not the app's; one line, no stack.
      this.logger.warn(`${app.code}: ${exception instanceof Error ? exception.message : String(exception)}`);
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
    if (status === 429) {
      const seconds = Number(app.params.retryAfterSeconds);
      if (Number.isFinite(seconds) && seconds > 0) res.setHeader('Retry-After', String(Math.ceil(seconds)));
    }
    res.status(status).json(body);
  }

  private toAppException(exception: unknown): AppException {
    if (exception instanceof AppException) return exception;
    if (exception instanceof HttpException) return new AppException(codeOfStatus(exception.getStatus()));
    if (isDatabaseUnavailable(exception)) return new AppException(ErrorCode.DATABASE_UNAVAILABLE);
    // http-errors from Express and its middleware (a URL that does not decode, a broken gzip body):
    // a client error stays a client error.
    const status = clientErrorStatus(exception);
    if (status) return new AppException(codeOfStatus(status));
    return new AppException(ErrorCode.INTERNAL_ERROR);
  }
}

function clientErrorStatus(exception: unknown): number | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const { status, statusCode, expose } = exception as { status?: unknown; statusCode?: unknown; expose?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && value >= 400 && value < 500 && expose !== false ? value : null;
}

function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return ErrorCode.UNAUTHORIZED;
    case 403:
      return ErrorCode.FORBIDDEN;
    case 404:
      return ErrorCode.ROUTE_NOT_FOUND;
    case 413:
      return ErrorCode.PAYLOAD_TOO_LARGE;
    case 415:
      return ErrorCode.UNSUPPORTED_MEDIA_TYPE;
    case 429:
      return ErrorCode.TOO_MANY_REQUESTS;
    default:
      return status >= 400 && status < 500 ? ErrorCode.MALFORMED_REQUEST : ErrorCode.INTERNAL_ERROR;
  }
}
