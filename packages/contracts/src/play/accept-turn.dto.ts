import { IsOptional, IsString, MaxLength } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';

/** The longest single accepted turn (user part or AI part). */
export const ACCEPT_PART_MAX_LENGTH = 100_000;

/**
 * `POST /api/llm/{id}/accept`: append the user part and the (possibly edited) AI part to the
 * story's text and clear the pending turn.
 */
export class AcceptTurnDto extends LocalizedDto {
  @IsString()
  @MaxLength(ACCEPT_PART_MAX_LENGTH)
  userContent!: string;

  @IsString()
  @MaxLength(ACCEPT_PART_MAX_LENGTH)
  newContent!: string;

  /** The take being accepted (any take of the pending turn, from the `user`/`done` events or `takes`): a repeated accept then appends nothing. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  turnId?: string;
}
