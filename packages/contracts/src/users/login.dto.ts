import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';

export const LOGIN_TYPES = ['username', 'phone'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const USER_NAME_MIN_LENGTH = 2;
export const USER_NAME_MAX_LENGTH = 32;
/** Letters (any script), digits, underscore, dot and dash. */
export const USER_NAME_PATTERN = /^[\p{L}\p{N}_.-]+$/u;

/**
 * `POST /api/user/login`. With `type: 'username'` a new name registers and an existing one signs in.
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
  @MaxLength(32)
  inviteCode?: string;

  @IsOptional()
  @IsString()
  @MaxLength(15)
  phoneNum?: string;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  verifyCode?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4)
  countryCode?: string;
}
