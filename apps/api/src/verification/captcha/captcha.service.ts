import { Injectable } from '@nestjs/common';
import { ErrorCode, type CaptchaChallenge } from '@taleloom/contracts';
import { AppException } from '../../common/app-exception';
import { CaptchaProvider } from './captcha-provider';

/** The captcha check services call; the provider behind it is configuration. */
@Injectable()
export class CaptchaService {
  constructor(private readonly provider: CaptchaProvider) {}

  challenge(): Promise<CaptchaChallenge> {
    return this.provider.challenge();
  }

  async assertPassed(answer: string | undefined, id: string | undefined, ip: string): Promise<void> {
    if (!answer?.trim()) throw new AppException(ErrorCode.CAPTCHA_REQUIRED);
    if (!(await this.provider.verify(answer, id, ip))) throw new AppException(ErrorCode.CAPTCHA_INVALID);
  }
}
