import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { SMS_CODE_PATTERN } from './account-constants';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './login.dto';

/** `POST /api/user/reset-password`: the code was sent to the bound phone with type `reset_password`. */
export class ResetPasswordDto extends LocalizedDto {
  @IsString()
  @Matches(SMS_CODE_PATTERN, { message: 'smsCode must be 6 digits' })
  smsCode!: string;

  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  newPassword!: string;
}
