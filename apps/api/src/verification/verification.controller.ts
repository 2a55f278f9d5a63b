import { Controller, Get, Header, Ip } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ok } from '../common/api-envelope';
import { CaptchaService } from './captcha/captcha.service';
import { countryCodes } from './phone';
import { RateLimitService } from './rate-limit.service';

@ApiTags('verification')
@Controller()
export class VerificationController {
  constructor(
    private readonly captcha: CaptchaService,
    private readonly limits: RateLimitService,
  ) {}

  @Get('country-codes')
  @Header('Cache-Control', 'public, max-age=86400')
  @ApiOperation({
    summary: 'Country calling codes',
    description: 'An object whose numeric keys are calling codes and whose values list ISO regions, from libphonenumber.',
  })
  countryCodes() {
    return ok(countryCodes());
  }

  @Get('captcha')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'A captcha challenge to pass before a code is sent',
    description:
      'svg: `{provider, id, svg}`: show the image, send its text as `verifyCode` and `id` as `captchaId` to ' +
      'send-sms; each image can be tried once and expires after 2 minutes (the web app refreshes it every 60 s). ' +
      'turnstile: `{provider, siteKey}`: render the Cloudflare widget and send its token as `verifyCode`.',
  })
  async challenge(@Ip() ip: string) {
    await this.limits.hit(`captcha:ip:${ip}`, 120, 60);
    return ok(await this.captcha.challenge());
  }
}
