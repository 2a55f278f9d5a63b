import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { CAPTCHA_REFRESH_SECONDS, type CaptchaChallenge } from '@taleloom/contracts';
import { createHmac } from 'node:crypto';
import { Model, Types } from 'mongoose';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Clock } from '../clock';
import { CaptchaProvider } from './captcha-provider';
import { CaptchaRecord } from './captcha.schema';

// The package's main export also draws a given text (untyped in its .d.ts). Loaded on the first
// captcha, not at start-up: it reads and parses its font as it loads (about 45 ms of every start).
// Node's module cache keeps it after the first call.
type SvgCaptcha = typeof import('svg-captcha') & ((text: string, options?: object) => string);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const svgCaptcha = (): SvgCaptcha => require('svg-captcha') as SvgCaptcha;

// The client refreshes every 60 s; a little grace covers a slow typist.
const TTL_SECONDS = CAPTCHA_REFRESH_SECONDS + 60;
const DRAW = { noise: 2, color: true, background: '#f5f3ff', width: 120, height: 40, fontSize: 46 };

/**
 * The built-in self-hosted image captcha (svg-captcha), answers kept in MongoDB so any instance can check them.
 * With `fixed` set (CAPTCHA_PROVIDER=fixed, tests only) every image shows that same answer.
 */
@Injectable()
export class ImageCaptchaProvider extends CaptchaProvider {
  constructor(
    @InjectModel(CaptchaRecord.name) private readonly records: Model<CaptchaRecord>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    super();
  }

  private get fixed(): string | null {
    return this.config.env.CAPTCHA_PROVIDER === 'fixed' ? this.config.env.CAPTCHA_FIXED_ANSWER : null;
  }

  async challenge(): Promise<CaptchaChallenge> {
    const fixed = this.fixed;
    const { text, data } = fixed
      ? { text: fixed, data: svgCaptcha()(fixed, DRAW) }
      : svgCaptcha().create({ ...DRAW, size: 4, ignoreChars: '0oO1iIlL' });
    const expiresAt = new Date(this.clock.now().getTime() + TTL_SECONDS * 1000);
    const record = await this.records.create({ answerHash: this.hash(text), expiresAt, expiresAtMs: expiresAt.getTime() });
    return {
      provider: fixed ? 'fixed' : 'svg',
      id: record._id.toHexString(),
      svg: data,
      expiresInSeconds: TTL_SECONDS,
    };
  }

  async verify(answer: string, id: string | undefined): Promise<boolean> {
    if (!id || !Types.ObjectId.isValid(id)) return false;
    // One try per image: the record goes whether the answer is right or not.
    const record = await this.records
        .findOneAndDelete({ _id: new Types.ObjectId(id), expiresAtMs: { $gt: this.clock.now().getTime() } })
        .lean()
        .exec();
    return Boolean(record && record.answerHash === this.hash(answer));
  }

  private hash(text: string): string {
    return createHmac('sha256', this.config.jwtSecret).update(`captcha:${text.trim().toLowerCase()}`).digest('hex');
  }
}
