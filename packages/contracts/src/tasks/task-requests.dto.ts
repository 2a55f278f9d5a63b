import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { TASK_SUGGESTION_COUNT } from './task';

// Query strings arrive as text; whole numbers are converted here (see story-list.dto.ts for why not @Type).
const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

/** `GET /api/tasks?story_id=`: the task info of one of your stories. */
export class TasksQueryDto {
  @IsString()
  @MaxLength(64)
  story_id!: string;

  @IsOptional()
  @IsIn(['en', 'zh-CN'])
  language?: string;
}

/** `POST /api/tasks/{id}/add_new`: accept suggestion `index` of the suggestion batch `batch`. */
export class AddTaskGroupDto extends LocalizedDto {
  @IsString()
  @Matches(/^[0-9a-f-]{8,64}$/i)
  batch!: string;

  @IsInt()
  @Min(0)
  @Max(TASK_SUGGESTION_COUNT - 1)
  index!: number;
}

/**
 * `POST /api/tasks/{id}/{index}/score`: judge the open targets of the group at `index`. `tasks_id`,
 * when given, must be that group's (a list that changed meanwhile never scores the wrong group).
 */
export class ScoreTaskGroupDto extends LocalizedDto {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  tasks_id?: number;
}

/** Query of `DELETE /api/tasks/{id}/{index}`: `tasks_id`, when given, must be the group at `index` (a repeated click never deletes the next group). */
export class DeleteTaskGroupQueryDto {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  tasks_id?: number;

  @IsOptional()
  @IsIn(['en', 'zh-CN'])
  language?: string;
}
