import { IsString, Matches } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { COUNTRY_CODE_PATTERN, PHONE_PATTERN, SMS_CODE_PATTERN } from './account-constants';

/** `POST /api/user/bind-mobile`: verifies a phone (code sent with type `register`) for the signed-in user. */
export class BindMobileDto extends LocalizedDto {
  @IsString()
  @Matches(PHONE_PATTERN, { message: 'phoneNum must be 6 to 15 digits' })
  phoneNum!: string;

  @IsString()
  @Matches(SMS_CODE_PATTERN, { message: 'smsCode must be 6 digits' })
  smsCode!: string;

  @IsString()
  @Matches(COUNTRY_CODE_PATTERN, { message: 'countryCode must be 1 to 3 digits' })
  countryCode!: string;
}
