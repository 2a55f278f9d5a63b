/** Which captcha the server asks for; the web renders the matching widget. */
export const CAPTCHA_PROVIDERS = ['svg', 'turnstile', 'fixed'] as const;
export type CaptchaProviderName = (typeof CAPTCHA_PROVIDERS)[number];

/** `data` of `GET /api/captcha`: an image challenge (`id` + `svg`) or a third-party widget (`siteKey`). */
export interface CaptchaChallenge {
  provider: CaptchaProviderName;
  id?: string;
  svg?: string;
  siteKey?: string;
  expiresInSeconds: number;
}

/** `data` of `GET /api/country-codes`: calling code (numeric key) -> ISO region codes. */
export type CountryCodes = Record<string, string[]>;
