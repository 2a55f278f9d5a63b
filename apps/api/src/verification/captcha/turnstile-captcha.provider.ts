import { Inject, Injectable, Logger } from '@nestjs/common';
import { CAPTCHA_REFRESH_SECONDS, ErrorCode, type CaptchaChallenge } from '@taleloom/contracts';
import { AppException } from '../../common/app-exception';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CaptchaProvider } from './captcha-provider';

const TIMEOUT_MS = 8_000;

/** Cloudflare Turnstile: the browser renders the widget with the site key; the server checks the token at siteverify. */
@Injectable()
export class TurnstileCaptchaProvider extends CaptchaProvider {
  private readonly logger = new Logger('Turnstile');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
  }

  async challenge(): Promise<CaptchaChallenge> {
    return { provider: 'turnstile', siteKey: this.config.env.TURNSTILE_SITE_KEY!, expiresInSeconds: CAPTCHA_REFRESH_SECONDS };
  }

  async verify(answer: string, _id: string | undefined, ip: string): Promise<boolean> {
    if (!answer) return false;
    const form = new URLSearchParams({ secret: this.config.env.TURNSTILE_SECRET_KEY!, response: answer });
    if (ip) form.set('remoteip', ip);
    let body: { success?: boolean; 'error-codes'?: string[] };
    try {
      const res = await fetch(this.config.env.TURNSTILE_VERIFY_URL, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      body = (await res.json()) as typeof body;
    } catch (error) {
      // Fail closed: no code is sent while the check cannot be made.
      this.logger.error(`siteverify failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new AppException(ErrorCode.CAPTCHA_UNAVAILABLE);
    }
    if (!body.success) this.logger.debug(`token refused: ${(body['error-codes'] ?? []).join(',')}`);
    return body.success === true;
  }
}
