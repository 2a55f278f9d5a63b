import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { COUNTRY_CODE_PATTERN, INVITE_CODE_MAX_LENGTH, PHONE_PATTERN, SMS_CODE_PATTERN } from './account-constants';

export const LOGIN_TYPES = ['username', 'phone'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const USER_NAME_MIN_LENGTH = 2;
export const USER_NAME_MAX_LENGTH = 32;
/** Letters (any script), digits, underscore, dot and dash. */
export const USER_NAME_PATTERN = /^[\p{L}\p{N}_.-]+$/u;

/**
 * `POST /api/user/login`. With `type: 'username'` a new name registers and an existing one signs in;
 * with `type: 'phone'` a code sent with type `login` signs in (or registers) by phone.
 */
export class LoginDto extends LocalizedDto {
  @IsIn(LOGIN_TYPES as unknown as string[])
  type!: LoginType;

  @ValidateIf((o: LoginDto) => o.type === 'username')
  @IsString()
  @MinLength(USER_NAME_MIN_LENGTH)
  @MaxLength(USER_NAME_MAX_LENGTH)
  @Matches(USER_NAME_PATTERN)
  userName?: string;

  @ValidateIf((o: LoginDto) => o.type === 'username')
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password?: string;

  @IsOptional()
  @IsString()
  @MaxLength(INVITE_CODE_MAX_LENGTH)
  inviteCode?: string;

  /** The national number, digits only. */
  @ValidateIf((o: LoginDto) => o.type === 'phone')
  @IsString()
  @Matches(PHONE_PATTERN, { message: 'phoneNum must be 6 to 15 digits' })
  phoneNum?: string;

  /** The 6-digit code sent by SMS. */
  @ValidateIf((o: LoginDto) => o.type === 'phone')
  @IsString()
  @Matches(SMS_CODE_PATTERN, { message: 'verifyCode must be 6 digits' })
  verifyCode?: string;

  /** The country calling code without plus sign, e.g. 86 or 1. */
  @ValidateIf((o: LoginDto) => o.type === 'phone')
  @IsString()
  @Matches(COUNTRY_CODE_PATTERN, { message: 'countryCode must be 1 to 3 digits' })
  countryCode?: string;
}
