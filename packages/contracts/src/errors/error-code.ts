/**
 * Every error the API can answer. The API sends `{status:'error', code, message}`;
 * the web app shows its own translation of `code` (locale key `errors.<code>`).
 */
export enum ErrorCode {
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  INVALID_JSON = 'INVALID_JSON',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNAUTHORIZED = 'UNAUTHORIZED',
  TOKEN_INVALID = 'TOKEN_INVALID',
  TOKEN_EXPIRED = 'TOKEN_EXPIRED',
  WRONG_PASSWORD = 'WRONG_PASSWORD',
  USER_NOT_FOUND = 'USER_NOT_FOUND',
  LOGIN_TYPE_UNSUPPORTED = 'LOGIN_TYPE_UNSUPPORTED',
  ACCOUNT_LOCKED = 'ACCOUNT_LOCKED',
  CAPTCHA_REQUIRED = 'CAPTCHA_REQUIRED',
  CAPTCHA_INVALID = 'CAPTCHA_INVALID',
  CAPTCHA_UNAVAILABLE = 'CAPTCHA_UNAVAILABLE',
  PHONE_INVALID = 'PHONE_INVALID',
  COUNTRY_CODE_UNKNOWN = 'COUNTRY_CODE_UNKNOWN',
  SMS_CODE_WRONG = 'SMS_CODE_WRONG',
  SMS_CODE_EXPIRED = 'SMS_CODE_EXPIRED',
  SMS_CODE_TOO_MANY_TRIES = 'SMS_CODE_TOO_MANY_TRIES',
  SMS_RESEND_TOO_SOON = 'SMS_RESEND_TOO_SOON',
  SMS_SEND_FAILED = 'SMS_SEND_FAILED',
  PHONE_ALREADY_BOUND = 'PHONE_ALREADY_BOUND',
  PHONE_ALREADY_VERIFIED = 'PHONE_ALREADY_VERIFIED',
  PHONE_NOT_VERIFIED = 'PHONE_NOT_VERIFIED',
  INVITE_CODE_INVALID = 'INVITE_CODE_INVALID',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  ROUTE_NOT_FOUND = 'ROUTE_NOT_FOUND',
  TOO_MANY_REQUESTS = 'TOO_MANY_REQUESTS',
  NOT_ENOUGH_POWER = 'NOT_ENOUGH_POWER',
  /** The chosen model is not offered (any more). */
  MODEL_NOT_FOUND = 'MODEL_NOT_FOUND',
  /** The story is generating; wait for it to finish. */
  GENERATION_IN_PROGRESS = 'GENERATION_IN_PROGRESS',
  /** Sends on one story are at most one per second. */
  SEND_TOO_FAST = 'SEND_TOO_FAST',
  /** The model provider failed or broke off; nothing was charged. */
  PROVIDER_ERROR = 'PROVIDER_ERROR',
  /** The model provider took too long to answer; nothing was charged. */
  PROVIDER_TIMEOUT = 'PROVIDER_TIMEOUT',
  ALREADY_CHECKED_IN = 'ALREADY_CHECKED_IN',
  /** The story does not exist, or it is someone else's and not public. */
  STORY_NOT_FOUND = 'STORY_NOT_FOUND',
  /** An update body carried no field to change. */
  NOTHING_TO_UPDATE = 'NOTHING_TO_UPDATE',
  DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
  /** The upload is not one of .txt .md .png .docx .rtf (decided by its content, not its name alone). */
  FILE_TYPE_UNSUPPORTED = 'FILE_TYPE_UNSUPPORTED',
  /** The upload is larger than 10 MB. */
  FILE_TOO_LARGE = 'FILE_TOO_LARGE',
  /** The upload has no content. */
  FILE_EMPTY = 'FILE_EMPTY',
  /** No file arrived, or the multipart body was malformed. */
  FILE_UPLOAD_FAILED = 'FILE_UPLOAD_FAILED',
  /** The file has the right type but could not be read (truncated, corrupt, bad checksum). */
  FILE_PARSE_FAILED = 'FILE_PARSE_FAILED',
  /** A compressed file (docx) would unpack to more than the limit: refused before parsing. */
  FILE_CONTENT_TOO_LARGE = 'FILE_CONTENT_TOO_LARGE',
  /** A PNG that carries no character card (no readable `ccv3` or `chara` text chunk). */
  CHARACTER_CARD_MISSING = 'CHARACTER_CARD_MISSING',
  /** The export could not be produced. */
  EXPORT_FAILED = 'EXPORT_FAILED',
  /** The archive does not exist or is not yours. */
  ARCHIVE_NOT_FOUND = 'ARCHIVE_NOT_FOUND',
  /** The request could not be read: its address, headers or body are malformed. */
  MALFORMED_REQUEST = 'MALFORMED_REQUEST',
  /** The request body uses an encoding or character set the API does not read. */
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  /** Sign-in attempts (POST /api/user/login) from one client IP exceed LOGIN_IP_PER_MINUTE. */
  LOGIN_RATE_LIMITED = 'LOGIN_RATE_LIMITED',
  /** A user started more than GENERATION_USER_PER_MINUTE generations within a minute (over all stories). */
  GENERATION_RATE_LIMITED = 'GENERATION_RATE_LIMITED',
  /** The picture does not exist, or it belongs to no story you may read. */
  PICTURE_NOT_FOUND = 'PICTURE_NOT_FOUND',
  /** The picture (or too many of the story's pictures) is being drawn; wait for it. */
  PICTURE_IN_PROGRESS = 'PICTURE_IN_PROGRESS',
  /** The image generator failed; nothing was charged. */
  PICTURE_FAILED = 'PICTURE_FAILED',
  /** The story's AI pictures setting (camera) is off. */
  PICTURES_OFF = 'PICTURES_OFF',
  /** This server has no image generator (the operator turned pictures off). */
  PICTURES_UNAVAILABLE = 'PICTURES_UNAVAILABLE',
  /** The story holds the most pictures it can. */
  PICTURE_LIMIT = 'PICTURE_LIMIT',
  /** The chosen passage has no text to illustrate. */
  PICTURE_PASSAGE_EMPTY = 'PICTURE_PASSAGE_EMPTY',
  /** The story has no such task group (or suggestion). */
  TASKS_NOT_FOUND = 'TASKS_NOT_FOUND',
  /** A task group holds 1 to 4 targets. */
  TASK_TARGET_COUNT = 'TASK_TARGET_COUNT',
  /** Completed targets (and groups holding one) cannot be edited or deleted; `params.task` is the target's number. */
  TASK_COMPLETED = 'TASK_COMPLETED',
  /** A task group cannot come before or after itself. */
  TASK_SELF_REFERENCE = 'TASK_SELF_REFERENCE',
  /** The score for the current plot was already calculated: play on first. */
  TASK_ALREADY_SCORED = 'TASK_ALREADY_SCORED',
  /** Every target of the group is completed: there is nothing left to score. */
  TASK_NOTHING_TO_SCORE = 'TASK_NOTHING_TO_SCORE',
  /** The model's answer could not be read as task groups or a judgement, twice; nothing was charged. */
  TASK_OUTPUT_INVALID = 'TASK_OUTPUT_INVALID',
  /** A story of an activity: its tasks and play mode cannot be changed. */
  TASKS_LOCKED = 'TASKS_LOCKED',
  /** Saving would make the story's text longer than STORY_TEXT_MAX_LENGTH characters. */
  STORY_TEXT_TOO_LONG = 'STORY_TEXT_TOO_LONG',
  /** An edit of the text (`main_text_edit`) was made on a text that changed since (elsewhere, or a turn): reload it. */
  STORY_TEXT_CHANGED = 'STORY_TEXT_CHANGED',
  /** A turn holds at most TAKES_PER_TURN_MAX takes: accept one or undo before regenerating again. */
  TAKES_LIMIT = 'TAKES_LIMIT',
  /** A story holds at most BRANCHES_PER_STORY_MAX branches: delete one first. */
  BRANCH_LIMIT = 'BRANCH_LIMIT',
  /** The story has no such branch (or it was deleted). */
  BRANCH_NOT_FOUND = 'BRANCH_NOT_FOUND',
  /** The branch being played cannot be deleted: switch to another one first. */
  BRANCH_IN_PLAY = 'BRANCH_IN_PLAY',
  /** A story keeps at least one branch. */
  BRANCH_LAST = 'BRANCH_LAST',
  /** The story plays another branch by now (changed on another device): reload it. */
  BRANCH_CHANGED = 'BRANCH_CHANGED',
  /** Another change of branch of this story is under way: try again in a moment. */
  BRANCH_SWITCHING = 'BRANCH_SWITCHING',
  /** A branch starts inside the story's text: the fork point is beyond its end. */
  BRANCH_POINT_INVALID = 'BRANCH_POINT_INVALID',
  /** The custom model does not exist or was deleted (or is someone else's). */
  CUSTOM_MODEL_NOT_FOUND = 'CUSTOM_MODEL_NOT_FOUND',
  /** A user has at most 3 custom models. */
  CUSTOM_MODEL_LIMIT_REACHED = 'CUSTOM_MODEL_LIMIT_REACHED',
  /** The user already has a custom model of that name (compared without regard to case). */
  CUSTOM_MODEL_NAME_TAKEN = 'CUSTOM_MODEL_NAME_TAKEN',
  /** The API address is not an http(s) base URL, or it ends with /chat/completions. */
  CUSTOM_MODEL_URL_INVALID = 'CUSTOM_MODEL_URL_INVALID',
  /** The API address resolves to a loopback, private, link-local or metadata address this server refuses. */
  CUSTOM_MODEL_ADDRESS_BLOCKED = 'CUSTOM_MODEL_ADDRESS_BLOCKED',
  /** Nothing answered at the API address (unknown host, refused, TLS failure). */
  CUSTOM_MODEL_ADDRESS_UNREACHABLE = 'CUSTOM_MODEL_ADDRESS_UNREACHABLE',
  /** Something answered, but not an OpenAI-compatible API (wrong path or version segment). */
  CUSTOM_MODEL_ADDRESS_WRONG = 'CUSTOM_MODEL_ADDRESS_WRONG',
  /** The provider refused the API key (401/403). */
  CUSTOM_MODEL_KEY_REJECTED = 'CUSTOM_MODEL_KEY_REJECTED',
  /** The provider does not know the model name. */
  CUSTOM_MODEL_MODEL_MISSING = 'CUSTOM_MODEL_MODEL_MISSING',
  /** The provider did not answer in time. */
  CUSTOM_MODEL_TIMEOUT = 'CUSTOM_MODEL_TIMEOUT',
  /** The provider answered with another error (its status is in params). */
  CUSTOM_MODEL_PROVIDER_ERROR = 'CUSTOM_MODEL_PROVIDER_ERROR',
  /** The stored key cannot be decrypted (the server's encryption key changed): enter it again. */
  CUSTOM_MODEL_KEY_UNREADABLE = 'CUSTOM_MODEL_KEY_UNREADABLE',
  /** The story has no lore entry with that id (or the story is not yours). */
  LORE_ENTRY_NOT_FOUND = 'LORE_ENTRY_NOT_FOUND',
  /** A story holds at most LORE_ENTRY_LIMIT lore entries (`params.limit`). */
  LORE_ENTRY_LIMIT = 'LORE_ENTRY_LIMIT',
  /** All lore entries' content together would pass LORE_TOTAL_CHARS_MAX characters (`params.limit`). */
  LORE_TOO_LARGE = 'LORE_TOO_LARGE',
  /** Rejoining a stream (GET /api/llm/{id}/stream): the story has no turn generating or waiting to be accepted. */
  NO_RUNNING_TURN = 'NO_RUNNING_TURN',
  /**
   * An `error` event only: the connection read the stream too slowly and was dropped (the generation
   * goes on): rejoin from the last event id.
   */
  STREAM_TOO_SLOW = 'STREAM_TOO_SLOW',
}

/** Every code, for exhaustive checks in tests and locale files. */
export const ALL_ERROR_CODES: readonly ErrorCode[] = Object.values(ErrorCode);
