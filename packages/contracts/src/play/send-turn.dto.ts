import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { asDto } from '../common/nested-dto';
import { ACCEPT_PART_MAX_LENGTH } from './accept-turn.dto';

export const TURN_ROLE_MAX_LENGTH = 50;
export const TURN_CONTENT_MAX_LENGTH = 10_000;

/**
 * The pending turn as the user leaves it when sending the next line: the send accepts it into the
 * story (the AI part as edited) before its own turn, instead of a separate `POST /api/llm/{id}/accept`.
 */
export class PendingTurnEditDto {
  /** The take being accepted (its turnId, from the `user`/`done` events or the pending turn's `takes`): a send naming a turn that is no longer pending appends nothing. */
  @IsString()
  @MaxLength(64)
  turnId!: string;

  @IsString()
  @MaxLength(ACCEPT_PART_MAX_LENGTH)
  userContent!: string;

  @IsString()
  @MaxLength(ACCEPT_PART_MAX_LENGTH)
  newContent!: string;
}

// The nested object becomes a PendingTurnEditDto here, not with @Type (which needs reflect-metadata in the browser).
const toEdit = ({ value }: { value: unknown }) => asDto(() => new PendingTurnEditDto())(value);

/**
 * `POST /api/llm/{id}`: write one line as `role` (empty: the narrator) and stream the continuation.
 * Empty `content` means "continue". `model_name` picks a platform model for this send, or with
 * `model_type: 'compatible_openai'` one of the user's custom models (else the story's choice, else the
 * default). `regenerate: true` adds a take (an alternative) to the pending (unaccepted) turn, beside its
 * earlier ones (at most TAKES_PER_TURN_MAX); otherwise a pending turn is accepted first, as `accept`
 * gives it (the take shown, with the user's edits), or its newest take as stored when `accept` is absent.
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

  /** The pending turn as edited, accepted before this send (ignored with `regenerate`). */
  @IsOptional()
  @Transform(toEdit)
  @ValidateNested()
  accept?: PendingTurnEditDto;

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
