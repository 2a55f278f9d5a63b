import { LocalizedDto } from '../common/localized.dto';

/** `POST /api/user/invite-code`: no fields besides `language`. */
export class InviteCodeDto extends LocalizedDto {}

/** The answer of `POST /api/user/invite-code`: `short` is the user's stable short code. */
export interface InviteCodeAnswer {
  status: 'success';
  message: string;
  short: string;
  data: { short: string };
}
