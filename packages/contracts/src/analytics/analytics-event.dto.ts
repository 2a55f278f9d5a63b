import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';

export const ANALYTICS_EVENTS = ['login_page_view', 'login_button_click', 'invite_code_click', 'login_success'] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number];

/** `POST /api/analytics/events`: one first-party analytics event. */
export class AnalyticsEventDto extends LocalizedDto {
  @IsIn(ANALYTICS_EVENTS as unknown as string[])
  name!: AnalyticsEventName;

  /** The path the event happened on (no query string). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^\/[^?#\s]*$/, { message: 'path must be a path starting with /' })
  path?: string;

  /** e.g. the login method: phone or username. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  @Matches(/^[\w-]*$/)
  method?: string;
}
