/** Account limits shared by the API and the web app (product spec section 9). */
export const SMS_CODE_LENGTH = 6;
/** A code is valid this long after it was sent. */
export const SMS_CODE_TTL_SECONDS = 300;
/** Wrong tries after which a code is burnt. */
export const SMS_CODE_MAX_WRONG_TRIES = 5;
/** The default wait between two codes to the same phone (the server's SMS_RESEND_SECONDS may change it). */
export const SMS_RESEND_SECONDS = 60;
export const PHONE_MIN_LENGTH = 6;
export const PHONE_MAX_LENGTH = 15;
/** Digits only, 6 to 15 of them (the national number, without the country code). */
export const PHONE_PATTERN = /^\d{6,15}$/;
/** A country calling code: 1 to 3 digits, no plus sign. */
export const COUNTRY_CODE_PATTERN = /^\d{1,3}$/;
export const SMS_CODE_PATTERN = /^\d{6}$/;
export const CAPTCHA_REFRESH_SECONDS = 60;
export const FIRST_PHONE_BIND_POWER = 100_000;
export const INVITE_REWARD_POWER = 100_000;
export const INVITE_CODE_MAX_LENGTH = 32;
export const DEFAULT_COUNTRY_CODE = { 'zh-CN': '86', en: '1' } as const;
