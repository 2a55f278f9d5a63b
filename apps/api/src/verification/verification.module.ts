import { Module, type Provider } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CaptchaProvider } from './captcha/captcha-provider';
import { CaptchaRecord, CaptchaRecordSchema } from './captcha/captcha.schema';
import { CaptchaService } from './captcha/captcha.service';
import { ImageCaptchaProvider } from './captcha/image-captcha.provider';
import { TurnstileCaptchaProvider } from './captcha/turnstile-captcha.provider';
import { Clock } from './clock';
import { RateLimitCounter, RateLimitCounterSchema } from './rate-limit.schema';
import { RateLimitService } from './rate-limit.service';
import { SmsCode, SmsCodeSchema } from './sms-code.schema';
import { SmsCodeService } from './sms-code.service';
import { LogSmsSender } from './sms/log-sms.sender';
import { OutboxSmsSender } from './sms/outbox-sms.sender';
import { SmsSender } from './sms/sms-sender';
import { TwilioSmsSender } from './sms/twilio-sms.sender';
import { VerificationController } from './verification.controller';

// The configured SMS sender and captcha provider stand behind their abstract classes.
const smsSender: Provider = {
  provide: SmsSender,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => {
    switch (config.env.SMS_PROVIDER) {
      case 'twilio':
        return new TwilioSmsSender(config);
      case 'outbox':
        return new OutboxSmsSender();
      default:
        return new LogSmsSender();
    }
  },
};

const captchaProvider: Provider = {
  provide: CaptchaProvider,
  inject: [APP_CONFIG, ImageCaptchaProvider],
  useFactory: (config: AppConfig, image: ImageCaptchaProvider) =>
    config.env.CAPTCHA_PROVIDER === 'turnstile' ? new TurnstileCaptchaProvider(config) : image,
};

/** Phone numbers, captchas, SMS codes and MongoDB-backed rate limits. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: SmsCode.name, schema: SmsCodeSchema },
      { name: CaptchaRecord.name, schema: CaptchaRecordSchema },
      { name: RateLimitCounter.name, schema: RateLimitCounterSchema },
    ]),
  ],
  controllers: [VerificationController],
  providers: [Clock, RateLimitService, SmsCodeService, ImageCaptchaProvider, captchaProvider, CaptchaService, smsSender],
  exports: [Clock, RateLimitService, SmsCodeService, CaptchaService, SmsSender],
})
export class VerificationModule {}
