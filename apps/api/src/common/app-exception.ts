import { ErrorCode, type FieldProblem } from '@taleloom/contracts';

/** The one exception services throw: a code, optional field problems and message parameters. */
export class AppException extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details?: FieldProblem[],
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
    this.name = 'AppException';
  }
}

/**
 * DATABASE_UNAVAILABLE from a retry loop that gave up (concurrent writes kept winning, or an insert kept
 * vanishing): the same answer to the client, but the log says what happened instead of "database unavailable".
 */
export class RetriesExhausted extends AppException {
  constructor(readonly what: string) {
    super(ErrorCode.DATABASE_UNAVAILABLE);
    this.name = 'RetriesExhausted';
  }
}

/** HTTP status of each code; the `never` check makes an unmapped new code fail to compile. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.VALIDATION_FAILED:
    case ErrorCode.INVALID_JSON:
    case ErrorCode.LOGIN_TYPE_UNSUPPORTED:
    case ErrorCode.CAPTCHA_REQUIRED:
    case ErrorCode.CAPTCHA_INVALID:
    case ErrorCode.PHONE_INVALID:
    case ErrorCode.COUNTRY_CODE_UNKNOWN:
    case ErrorCode.SMS_CODE_WRONG:
    case ErrorCode.SMS_CODE_EXPIRED:
    case ErrorCode.SMS_CODE_TOO_MANY_TRIES:
    case ErrorCode.INVITE_CODE_INVALID:
    case ErrorCode.NOTHING_TO_UPDATE:
      return 400;
    case ErrorCode.UNAUTHORIZED:
    case ErrorCode.TOKEN_INVALID:
    case ErrorCode.TOKEN_EXPIRED:
    case ErrorCode.WRONG_PASSWORD:
      return 401;
    case ErrorCode.NOT_ENOUGH_POWER:
      return 402;
    case ErrorCode.FORBIDDEN:
    case ErrorCode.PHONE_NOT_VERIFIED:
      return 403;
    case ErrorCode.GENERATION_IN_PROGRESS:
    case ErrorCode.PHONE_ALREADY_BOUND:
    case ErrorCode.PHONE_ALREADY_VERIFIED:
      return 409;
    case ErrorCode.NOT_FOUND:
    case ErrorCode.MODEL_NOT_FOUND:
    case ErrorCode.ROUTE_NOT_FOUND:
    case ErrorCode.USER_NOT_FOUND:
    case ErrorCode.STORY_NOT_FOUND:
      return 404;
    case ErrorCode.ALREADY_CHECKED_IN:
      return 409;
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return 413;
    case ErrorCode.TOO_MANY_REQUESTS:
    case ErrorCode.SEND_TOO_FAST:
      return 429;
    case ErrorCode.PROVIDER_ERROR:
      return 502;
    case ErrorCode.PROVIDER_TIMEOUT:
      return 504;
    case ErrorCode.ACCOUNT_LOCKED:
    case ErrorCode.SMS_RESEND_TOO_SOON:
      return 429;
    case ErrorCode.SMS_SEND_FAILED:
      return 502;
    case ErrorCode.CAPTCHA_UNAVAILABLE:
      return 503;
    case ErrorCode.DATABASE_UNAVAILABLE:
      return 503;
    case ErrorCode.INTERNAL_ERROR:
      return 500;
    case ErrorCode.FILE_EMPTY:
    case ErrorCode.FILE_UPLOAD_FAILED:
      return 400;
    case ErrorCode.FILE_TOO_LARGE:
    case ErrorCode.FILE_CONTENT_TOO_LARGE:
    case ErrorCode.STORY_TEXT_TOO_LONG:
      return 413;
    case ErrorCode.FILE_TYPE_UNSUPPORTED:
      return 415;
    case ErrorCode.FILE_PARSE_FAILED:
    case ErrorCode.CHARACTER_CARD_MISSING:
      return 422;
    case ErrorCode.EXPORT_FAILED:
      return 500;
    case ErrorCode.ARCHIVE_NOT_FOUND:
    case ErrorCode.PICTURE_NOT_FOUND:
      return 404;
    case ErrorCode.MALFORMED_REQUEST:
      return 400;
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return 415;
    case ErrorCode.LOGIN_RATE_LIMITED:
      return 429;
    case ErrorCode.GENERATION_RATE_LIMITED:
      return 429;
    case ErrorCode.PICTURE_PASSAGE_EMPTY:
      return 400;
    case ErrorCode.PICTURE_IN_PROGRESS:
    case ErrorCode.PICTURES_OFF:
    case ErrorCode.PICTURE_LIMIT:
      return 409;
    case ErrorCode.PICTURE_FAILED:
      return 502;
    case ErrorCode.PICTURES_UNAVAILABLE:
      return 503;
    case ErrorCode.TASKS_NOT_FOUND:
      return 404;
    case ErrorCode.TASK_TARGET_COUNT:
    case ErrorCode.TASK_SELF_REFERENCE:
      return 400;
    case ErrorCode.TASK_COMPLETED:
    case ErrorCode.TASK_ALREADY_SCORED:
    case ErrorCode.TASK_NOTHING_TO_SCORE:
      return 409;
    case ErrorCode.TASKS_LOCKED:
      return 403;
    case ErrorCode.TASK_OUTPUT_INVALID:
      return 502;
    case ErrorCode.TAKES_LIMIT:
    case ErrorCode.BRANCH_LIMIT:
    case ErrorCode.BRANCH_IN_PLAY:
    case ErrorCode.BRANCH_LAST:
    case ErrorCode.BRANCH_CHANGED:
    case ErrorCode.BRANCH_SWITCHING:
    case ErrorCode.STORY_TEXT_CHANGED:
      return 409;
    case ErrorCode.BRANCH_NOT_FOUND:
      return 404;
    case ErrorCode.BRANCH_POINT_INVALID:
      return 400;
    case ErrorCode.CUSTOM_MODEL_NOT_FOUND:
      return 404;
    case ErrorCode.CUSTOM_MODEL_LIMIT_REACHED:
    case ErrorCode.CUSTOM_MODEL_NAME_TAKEN:
    case ErrorCode.CUSTOM_MODEL_KEY_UNREADABLE:
      return 409;
    case ErrorCode.CUSTOM_MODEL_URL_INVALID:
    case ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED:
      return 400;
    // The provider's verdict on the user's input; never 401, which would sign the user out.
    case ErrorCode.CUSTOM_MODEL_KEY_REJECTED:
    case ErrorCode.CUSTOM_MODEL_MODEL_MISSING:
      return 422;
    case ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE:
    case ErrorCode.CUSTOM_MODEL_ADDRESS_WRONG:
    case ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR:
      return 502;
    case ErrorCode.CUSTOM_MODEL_TIMEOUT:
      return 504;
    case ErrorCode.LORE_ENTRY_NOT_FOUND:
      return 404;
    case ErrorCode.LORE_ENTRY_LIMIT:
      return 409;
    case ErrorCode.LORE_TOO_LARGE:
      return 413;
    case ErrorCode.NO_RUNNING_TURN:
      return 409;
    case ErrorCode.STREAM_TOO_SLOW:
      return 503;
    default: {
      const unmapped: never = code;
      throw new Error(`Unmapped error code ${String(unmapped)}`);
    }
  }
}
