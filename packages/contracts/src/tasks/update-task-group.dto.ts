import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { asDto } from '../common/nested-dto';
import {
  EVIDENCE_MAX_LENGTH,
  MAIN_CHARACTER_MAX_LENGTH,
  REASON_MAX_LENGTH,
  SERIES_NAME_MAX_LENGTH,
  TARGET_SCORES,
  TARGET_TYPES,
  TASK_TITLE_MAX_LENGTH,
  type TargetType,
} from './task';

/** The most targets a body may carry at all; the 1-to-4 rule answers its own error (TASK_TARGET_COUNT). */
export const TASK_TARGETS_BODY_MAX = 20;
/** The most related groups one selector may hold. */
export const TASK_RELATIONS_MAX = 50;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * One target in `PUT /api/tasks/{id}/{groupId}`. `id` names an existing target (empty or unknown:
 * a new one). The server keeps its own values of `completed`, `complete_turn`, the probabilities,
 * `evidence` and `reason`; they are accepted so a client may send a target back as it got it.
 */
export class TaskTargetDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(TASK_TITLE_MAX_LENGTH)
  title!: string;

  @IsIn(TARGET_TYPES as unknown as string[])
  type!: TargetType;

  @IsIn(TARGET_SCORES as unknown as number[])
  score!: number;

  @IsOptional()
  @IsBoolean()
  completed?: boolean;

  @IsOptional()
  @IsInt()
  complete_turn?: number | null;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  original_probability?: number | null;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  current_probability?: number | null;

  @IsOptional()
  @IsString()
  @MaxLength(EVIDENCE_MAX_LENGTH)
  evidence?: string;

  @IsOptional()
  @IsString()
  @MaxLength(REASON_MAX_LENGTH)
  reason?: string;
}

// Nested objects become TaskTargetDto instances here, not with @Type (which needs reflect-metadata in the browser).
const toTargets = ({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(asDto(() => new TaskTargetDto())) : value);

/**
 * `PUT /api/tasks/{id}/{groupId}`: the targets (1 to 4) with `series_name` and `main_character`,
 * or the group relations (`tasks_id`s of other groups of the story). At least one field.
 */
export class UpdateTaskGroupDto extends LocalizedDto {
  @IsOptional()
  @Transform(toTargets)
  @IsArray()
  @ArrayMaxSize(TASK_TARGETS_BODY_MAX)
  @ValidateNested({ each: true })
  targets?: TaskTargetDto[];

  @IsOptional()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(SERIES_NAME_MAX_LENGTH)
  series_name?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(MAIN_CHARACTER_MAX_LENGTH)
  main_character?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TASK_RELATIONS_MAX)
  @IsInt({ each: true })
  @Min(1, { each: true })
  preceding_task_groups?: number[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TASK_RELATIONS_MAX)
  @IsInt({ each: true })
  @Min(1, { each: true })
  subsequent_task_groups?: number[];
}
