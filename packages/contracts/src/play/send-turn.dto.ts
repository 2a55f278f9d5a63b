import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';

export const TURN_ROLE_MAX_LENGTH = 50;
export const TURN_CONTENT_MAX_LENGTH = 10_000;

/**
 * `POST /api/llm/{id}`: write one line as `role` (empty: the narrator) and stream the continuation.
 * Empty `content` means "continue". `model_name` picks a platform model for this send, or with
 * `model_type: 'compatible_openai'` one of the user's custom models (else the story's choice, else the
 * default). `regenerate: true` replaces the pending (unaccepted) turn.
 */
export class SendTurnDto extends LocalizedDto {
  @IsOptional()
  @IsString()
  @MaxLength(TURN_ROLE_MAX_LENGTH)
  role?: string;

  @IsOptional()
  @IsString()
  @MaxLength(TURN_CONTENT_MAX_LENGTH)
  content?: string;

  @IsOptional()
  @IsBoolean()
  regenerate?: boolean;

  /** Only `compatible_openai` exists; custom models are chosen by name. */
  @IsOptional()
  @IsIn(['compatible_openai', 'platform', ''])
  model_type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  model_name?: string;

  /** Accepted for compatibility; keys of custom models are stored server-side, never sent per request. */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  api_key?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  base_url?: string;

  @IsOptional()
  @IsBoolean()
  enable_reasoning?: boolean;
}
