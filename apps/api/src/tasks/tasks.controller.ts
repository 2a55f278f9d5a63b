import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import {
  AddTaskGroupDto,
  DeleteTaskGroupQueryDto,
  LocalizedDto,
  ScoreTaskGroupDto,
  TasksQueryDto,
  UpdateTaskGroupDto,
} from '@taleloom/contracts';
import type { Request, Response } from 'express';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { requestLanguage } from '../common/request-language';
import { relayEvents } from '../common/sse-response';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { TasksService } from './tasks.service';

const STREAMED =
  'Answers `text/event-stream` (one JSON StreamEvent per `data:` line). The request belongs to the server: closing the ' +
  'connection does not stop it and its result is stored. The power is held before the model is called and settled once ' +
  'at the end; a failure (provider error, or an answer that could not be read twice: TASK_OUTPUT_INVALID) charges nothing. ' +
  'Refusals come before the stream as JSON errors: 402 NOT_ENOUGH_POWER, 409 GENERATION_IN_PROGRESS (another task request ' +
  'of the story is running), 404 STORY_NOT_FOUND.';

@ApiTags('tasks')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('tasks')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Get()
  @ApiOperation({
    summary: 'The task info of a story',
    description:
      'Your own story only (another user\'s answers 404 STORY_NOT_FOUND): `tasks_list` (the groups and their targets), ' +
      '`current_tasks_id`, `current_turn` (accepted rounds), `total_score`, `total_forbidden_turns`, `complete_task`, the ' +
      'latest `suggestions`, `locked` (a story of an activity) and `rev`.',
  })
  @ApiErrorResponses(400, 401, 404)
  async info(@CurrentUser() user: AuthUser, @Query() query: TasksQueryDto) {
    return ok(await this.tasks.info(user, query.story_id));
  }

  @Get('status/:id')
  @ApiOperation({
    summary: 'Task status (polled every 30 s)',
    description: 'Totals, `rev`, the running request (`create`, `score` or null) and a `list` with each group\'s score and whether it can be scored now.',
  })
  @ApiParam({ name: 'id', description: 'The story id' })
  @ApiErrorResponses(401, 404)
  async status(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.tasks.status(user, id));
  }

  @Post(':id/create')
  @ApiOperation({
    summary: 'Stream new task-group suggestions',
    description:
      `${STREAMED} Events: \`task_suggestion\` (each group as soon as the model finished it), \`task_retry\` (the answer ` +
      'could not be read: asked once more, drop what was shown), then `task_suggestions` (the stored set, with its `batch`), ' +
      '`usage` and `done`; or `error`. 403 TASKS_LOCKED for a story of an activity.',
  })
  @ApiParam({ name: 'id', description: 'The story id' })
  @ApiProduces('text/event-stream')
  @ApiDtoBody(LocalizedDto)
  @ApiErrorResponses(400, 401, 402, 403, 404, 409)
  async create(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() _dto: LocalizedDto, @Req() req: Request, @Res() res: Response) {
    relayEvents(res, await this.tasks.create(user, id, requestLanguage(req)));
  }

  @Post(':id/add_new')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept a suggestion as a new task group',
    description:
      'Adds suggestion `index` of suggestion `batch` as a new group (it becomes the current one) and answers the task info. ' +
      'Accepting the same suggestion again adds nothing. 404 TASKS_NOT_FOUND for an unknown batch or index; 403 TASKS_LOCKED.',
  })
  @ApiParam({ name: 'id', description: 'The story id' })
  @ApiDtoBody(AddTaskGroupDto)
  @ApiErrorResponses(400, 401, 403, 404)
  async addNew(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() dto: AddTaskGroupDto) {
    return ok(await this.tasks.addNew(user, id, dto));
  }

  @Put(':id/:groupId')
  @ApiOperation({
    summary: 'Edit a task group',
    description:
      'Body: `targets` (1 to 4, matched by `id`; an empty id is a new target) with `series_name` / `main_character`, or ' +
      '`preceding_task_groups` / `subsequent_task_groups` (`tasks_id`s; mirrored on the other groups). Answers the task info. ' +
      'Errors: 400 VALIDATION_FAILED (`details[].field` like `targets.1.title`, with `rules`), 400 TASK_TARGET_COUNT, ' +
      '409 TASK_COMPLETED (a completed target changed or left out; `params.task` is its number), 400 TASK_SELF_REFERENCE, ' +
      '404 TASKS_NOT_FOUND, 403 TASKS_LOCKED.',
  })
  @ApiParam({ name: 'id', description: 'The story id' })
  @ApiParam({ name: 'groupId', description: 'The group\'s tasks_id' })
  @ApiDtoBody(UpdateTaskGroupDto)
  @ApiErrorResponses(400, 401, 403, 404, 409)
  async update(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('groupId') groupId: string, @Body() dto: UpdateTaskGroupDto) {
    return ok(await this.tasks.update(user, id, groupId, dto));
  }

  @Delete(':id/:index')
  @ApiOperation({
    summary: 'Delete a task group',
    description:
      'Deletes the group at `index` (0-based; `?tasks_id=` guards against a list that changed) and every reference to it. ' +
      '409 TASK_COMPLETED when it holds a completed target; 404 TASKS_NOT_FOUND; 403 TASKS_LOCKED.',
  })
  @ApiParam({ name: 'id', description: 'The story id' })
  @ApiParam({ name: 'index', description: 'The group\'s position in tasks_list' })
  @ApiErrorResponses(400, 401, 403, 404, 409)
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('index') index: string, @Query() query: DeleteTaskGroupQueryDto) {
    return ok(await this.tasks.remove(user, id, index, query.tasks_id));
  }

  @Post(':id/:index/score')
  @ApiOperation({
    summary: 'Stream the scoring of a task group',
    description:
      `${STREAMED} Events: \`task_verdict\` per open target (a completed one quotes the passage that shows it; a quote not ` +
      'found in the story is `unproven` and does not count), `task_retry`, then `task_scored` (the group and totals), `usage` ' +
      'and `done`; or `error`. 409 TASK_ALREADY_SCORED when the group was scored at the current turn (play on first), ' +
      '409 TASK_NOTHING_TO_SCORE when every target of the group is completed, ' +
      '404 TASKS_NOT_FOUND.',
  })
  @ApiParam({ name: 'id', description: 'The story id' })
  @ApiParam({ name: 'index', description: 'The group\'s position in tasks_list' })
  @ApiProduces('text/event-stream')
  @ApiDtoBody(ScoreTaskGroupDto)
  @ApiErrorResponses(400, 401, 402, 404, 409)
  async score(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('index') index: string,
    @Body() dto: ScoreTaskGroupDto,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    relayEvents(res, await this.tasks.score(user, id, index, dto.tasks_id, requestLanguage(req)));
  }
}
