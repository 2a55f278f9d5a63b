import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { COUNTRY_CODE_PATTERN, PHONE_PATTERN } from './account-constants';

/**
 * What a code is for. `login` signs in or registers by phone (the client need not know which),
 * `register` verifies a phone being bound to the signed-in account, `reset_password` goes to the
 * signed-in user's bound phone.
 */
export const SMS_TYPES = ['login', 'register', 'reset_password'] as const;
export type SmsType = (typeof SMS_TYPES)[number];

/** `POST /api/user/send-sms`. */
export class SendSmsDto extends LocalizedDto {
  @IsIn(SMS_TYPES as unknown as string[])
  type!: SmsType;

  /** The national number, digits only; not needed for reset_password (the bound phone is used). */
  @ValidateIf((o: SendSmsDto) => o.type !== 'reset_password' || o.phoneNum !== undefined)
  @IsString()
  @Matches(PHONE_PATTERN, { message: 'phoneNum must be 6 to 15 digits' })
  phoneNum?: string;

  @ValidateIf((o: SendSmsDto) => o.type !== 'reset_password' || o.countryCode !== undefined)
  @IsString()
  @Matches(COUNTRY_CODE_PATTERN, { message: 'countryCode must be 1 to 3 digits' })
  countryCode?: string;

  /** The captcha answer (image captcha text, or a Turnstile token); required when not signed in. */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  verifyCode?: string;

  /** The id of the image captcha answered in `verifyCode` (from `GET /api/captcha`). */
  @IsOptional()
  @IsString()
  @Matches(/^[a-f0-9]{24}$/, { message: 'captchaId must be the id answered by GET /api/captcha' })
  captchaId?: string;
}

/** `data` of a successful send. `devCode` only when the server runs in development with the log sender. */
export interface SendSmsData {
  /** Seconds until the next code to this phone may be sent. */
  resendAfterSeconds: number;
  /** Seconds the code stays valid. */
  expiresInSeconds: number;
  devCode?: string;
}
