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
  [ErrorCode.ACCOUNT_LOCKED]:
    'Too many wrong passwords for this user name. It is locked for {minutes} more minute(s), until {until} (UTC).',
  [ErrorCode.CAPTCHA_REQUIRED]: 'Please complete the captcha first.',
  [ErrorCode.CAPTCHA_INVALID]: 'The captcha answer is wrong or has expired. Please try a new one.',
  [ErrorCode.CAPTCHA_UNAVAILABLE]: 'The captcha service is unavailable. Please refresh the page and retry.',
  [ErrorCode.PHONE_INVALID]: 'Please enter a correct phone number.',
  [ErrorCode.COUNTRY_CODE_UNKNOWN]: 'Unknown country code.',
  [ErrorCode.SMS_CODE_WRONG]: 'The verification code is wrong.',
  [ErrorCode.SMS_CODE_EXPIRED]: 'The verification code has expired. Please request a new one.',
  [ErrorCode.SMS_CODE_TOO_MANY_TRIES]: 'Too many wrong tries for this code. Please request a new one.',
  [ErrorCode.SMS_RESEND_TOO_SOON]: 'A code was sent recently. Please wait {seconds} seconds before asking again.',
  [ErrorCode.SMS_SEND_FAILED]: 'Verification code sending failed, please retry.',
  [ErrorCode.PHONE_ALREADY_BOUND]: 'This phone number is already bound to another account.',
  [ErrorCode.PHONE_ALREADY_VERIFIED]: 'Your account already has a verified phone number.',
  [ErrorCode.PHONE_NOT_VERIFIED]: 'Please bind and verify a phone number first.',
  [ErrorCode.INVITE_CODE_INVALID]: 'This invite code does not exist. Leave it empty if you have no code.',
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
  [ErrorCode.ACCOUNT_LOCKED]: '该用户名密码错误次数过多，已锁定，请在 {minutes} 分钟后（{until}，UTC）再试。',
  [ErrorCode.CAPTCHA_REQUIRED]: '请先完成人机验证。',
  [ErrorCode.CAPTCHA_INVALID]: '图形验证码错误或已过期，请重新获取。',
  [ErrorCode.CAPTCHA_UNAVAILABLE]: '人机验证服务暂不可用，请刷新页面后重试。',
  [ErrorCode.PHONE_INVALID]: '请输入正确的手机号。',
  [ErrorCode.COUNTRY_CODE_UNKNOWN]: '未知的国家/地区区号。',
  [ErrorCode.SMS_CODE_WRONG]: '验证码错误。',
  [ErrorCode.SMS_CODE_EXPIRED]: '验证码已过期，请重新获取。',
  [ErrorCode.SMS_CODE_TOO_MANY_TRIES]: '验证码错误次数过多，请重新获取。',
  [ErrorCode.SMS_RESEND_TOO_SOON]: '验证码刚刚发送过，请 {seconds} 秒后再试。',
  [ErrorCode.SMS_SEND_FAILED]: '验证码发送失败，请重试。',
  [ErrorCode.PHONE_ALREADY_BOUND]: '该手机号已绑定其他账号。',
  [ErrorCode.PHONE_ALREADY_VERIFIED]: '你的账号已绑定手机号。',
  [ErrorCode.PHONE_NOT_VERIFIED]: '请先绑定并验证手机号。',
  [ErrorCode.INVITE_CODE_INVALID]: '邀请码不存在。没有邀请码请留空。',
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
};

export const ERROR_MESSAGES: Record<Language, Messages> = { en, 'zh-CN': zh };

export function errorMessage(code: ErrorCode, language: Language, params: Record<string, string | number> = {}) {
  return ERROR_MESSAGES[language][code].replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? ''));
}
