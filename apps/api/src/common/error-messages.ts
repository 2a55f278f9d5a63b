import { ErrorCode, type Language } from '@taleloom/contracts';

type Messages = Record<ErrorCode, string>;

// Server-side sentences for API users (curl, Swagger); the web app shows its own translation of the code.
const en: Messages = {
  [ErrorCode.VALIDATION_FAILED]: 'Some fields are invalid: {fields}',
  [ErrorCode.INVALID_JSON]: 'The request body is not valid JSON.',
  [ErrorCode.PAYLOAD_TOO_LARGE]: 'The request body is too large.',
  [ErrorCode.UNAUTHORIZED]: 'Please log in first.',
  [ErrorCode.TOKEN_INVALID]: 'Your login is not valid. Please log in again.',
  [ErrorCode.TOKEN_EXPIRED]: 'Your login has expired. Please log in again.',
  [ErrorCode.WRONG_PASSWORD]: 'Wrong user name or password.',
  [ErrorCode.USER_NOT_FOUND]: 'The user does not exist.',
  [ErrorCode.LOGIN_TYPE_UNSUPPORTED]: 'This way of signing in is not available yet.',
  [ErrorCode.FORBIDDEN]: 'You are not allowed to do that.',
  [ErrorCode.NOT_FOUND]: 'Not found.',
  [ErrorCode.ROUTE_NOT_FOUND]: 'No such endpoint.',
  [ErrorCode.TOO_MANY_REQUESTS]: 'Too many requests. Please try again later.',
  [ErrorCode.NOT_ENOUGH_POWER]: 'Not enough power, please get power.',
  [ErrorCode.ALREADY_CHECKED_IN]: 'You have already checked in today. Come back tomorrow.',
  [ErrorCode.STORY_NOT_FOUND]: 'The story does not exist or is not public.',
  [ErrorCode.NOTHING_TO_UPDATE]: 'Nothing to update: send at least one field to change.',
  [ErrorCode.DATABASE_UNAVAILABLE]: 'The database is unavailable. Please try again later.',
  [ErrorCode.INTERNAL_ERROR]: 'Something went wrong on our side. Please try again later.',
  [ErrorCode.FILE_TYPE_UNSUPPORTED]: 'File type not supported. Use .txt, .md, .png, .docx or .rtf.',
  [ErrorCode.FILE_TOO_LARGE]: 'File size cannot exceed 10MB.',
  [ErrorCode.FILE_EMPTY]: 'The file is empty.',
  [ErrorCode.FILE_UPLOAD_FAILED]: 'File upload failed. Please try again.',
  [ErrorCode.FILE_PARSE_FAILED]: 'File parsing failed: the file may be damaged or truncated.',
  [ErrorCode.FILE_CONTENT_TOO_LARGE]: 'The file unpacks to more than {limit} MB and was refused.',
  [ErrorCode.CHARACTER_CARD_MISSING]: 'This PNG picture carries no character card.',
  [ErrorCode.EXPORT_FAILED]: 'Export failed. Please try again.',
  [ErrorCode.ARCHIVE_NOT_FOUND]: 'The archive does not exist.',
};

const zh: Messages = {
  [ErrorCode.VALIDATION_FAILED]: '以下字段不合法：{fields}',
  [ErrorCode.INVALID_JSON]: '请求内容不是合法的 JSON。',
  [ErrorCode.PAYLOAD_TOO_LARGE]: '请求内容过大。',
  [ErrorCode.UNAUTHORIZED]: '请先登录。',
  [ErrorCode.TOKEN_INVALID]: '登录凭证无效，请重新登录。',
  [ErrorCode.TOKEN_EXPIRED]: '登录已过期，请重新登录。',
  [ErrorCode.WRONG_PASSWORD]: '用户名或密码错误。',
  [ErrorCode.USER_NOT_FOUND]: '用户不存在。',
  [ErrorCode.LOGIN_TYPE_UNSUPPORTED]: '暂不支持这种登录方式。',
  [ErrorCode.FORBIDDEN]: '你没有权限这样做。',
  [ErrorCode.NOT_FOUND]: '未找到。',
  [ErrorCode.ROUTE_NOT_FOUND]: '接口不存在。',
  [ErrorCode.TOO_MANY_REQUESTS]: '请求过于频繁，请稍后再试。',
  [ErrorCode.NOT_ENOUGH_POWER]: '电量不足，请获取电量。',
  [ErrorCode.ALREADY_CHECKED_IN]: '今天已经签到过了，明天再来吧。',
  [ErrorCode.STORY_NOT_FOUND]: '故事不存在或未公开。',
  [ErrorCode.NOTHING_TO_UPDATE]: '没有要修改的内容：请至少提供一个字段。',
  [ErrorCode.DATABASE_UNAVAILABLE]: '数据库暂不可用，请稍后再试。',
  [ErrorCode.INTERNAL_ERROR]: '服务器出了点问题，请稍后再试。',
  [ErrorCode.FILE_TYPE_UNSUPPORTED]: '不支持该文件类型，请使用 .txt、.md、.png、.docx 或 .rtf。',
  [ErrorCode.FILE_TOO_LARGE]: '文件大小不能超过 10MB。',
  [ErrorCode.FILE_EMPTY]: '文件是空的。',
  [ErrorCode.FILE_UPLOAD_FAILED]: '文件上传失败，请重试。',
  [ErrorCode.FILE_PARSE_FAILED]: '文件解析失败：文件可能已损坏或不完整。',
  [ErrorCode.FILE_CONTENT_TOO_LARGE]: '文件解压后超过 {limit} MB，已拒绝。',
  [ErrorCode.CHARACTER_CARD_MISSING]: '这张 PNG 图片里没有角色卡。',
  [ErrorCode.EXPORT_FAILED]: '导出失败，请重试。',
  [ErrorCode.ARCHIVE_NOT_FOUND]: '存档不存在。',
};

export const ERROR_MESSAGES: Record<Language, Messages> = { en, 'zh-CN': zh };

export function errorMessage(code: ErrorCode, language: Language, params: Record<string, string | number> = {}) {
  return ERROR_MESSAGES[language][code].replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? ''));
}
