import type { CaptchaChallenge } from '@taleloom/contracts';

/** A human check before a code is sent. */
export abstract class CaptchaProvider {
  abstract challenge(): Promise<CaptchaChallenge>;
  /** True when `answer` passes; each image challenge can be tried once. Throws CAPTCHA_UNAVAILABLE when the provider is down. */
  abstract verify(answer: string, id: string | undefined, ip: string): Promise<boolean>;
}
