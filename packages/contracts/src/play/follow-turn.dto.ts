import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { STREAM_POSITION_PATTERN } from '../streaming/stream-position';

/**
 * `GET /api/llm/{id}/stream`: rejoin the story's turn. `from`: the position to go on from (the last
 * event id read; the `Last-Event-ID` header says the same and wins). `turn`: the turn that position
 * belongs to; when the story's turn is another one by now, its stream starts from the beginning.
 */
export class FollowTurnQueryDto {
  @IsOptional()
  @IsString()
  @Matches(STREAM_POSITION_PATTERN)
  from?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  turn?: string;

  /** The language of an `error` event's message (else Accept-Language). */
  @IsOptional()
  @IsIn(['en', 'zh-CN'])
  language?: string;
}
