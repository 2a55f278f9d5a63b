import { LocalizedDto } from '../common/localized.dto';

/** Body of `POST /api/user/check-in`: nothing but the language the web client adds to every POST. */
export class CheckInDto extends LocalizedDto {}
