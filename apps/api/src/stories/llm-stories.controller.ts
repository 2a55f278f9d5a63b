import { Body, Controller, Get, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CreateStoryDto, StoryIdQueryDto, UpdateStoryDto } from '@taleloom/contracts';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { StoriesService } from './stories.service';

/** The `/api/llm` story record: create, read, change, clone (generation endpoints come with play). */
@ApiTags('stories')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('llm')
export class LlmStoriesController {
  constructor(private readonly stories: StoriesService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a story',
    description:
      'Name optional (2 to 200; empty means untitled), prologue required (it also starts the text), role up to 50, ' +
      'play mode default fly_free, settings default as in the spec. Answers `{id}`.',
  })
  @ApiDtoBody(CreateStoryDto)
  @ApiErrorResponses(400, 401)
  async create(@CurrentUser() user: AuthUser, @Body() dto: CreateStoryDto) {
    return ok(await this.stories.create(user, dto));
  }

  @Get()
  @ApiOperation({
    summary: 'The story record used for play',
    description: "My story as it is, or someone else's public version (read-only, `isOwner: false`).",
  })
  @ApiQuery({ name: 'id', type: String })
  @ApiErrorResponses(400, 401, 404)
  async get(@CurrentUser() user: AuthUser, @Query() query: StoryIdQueryDto) {
    return ok(await this.stories.get(user, query.id));
  }

  @Patch()
  @ApiOperation({
    summary: 'Change my story',
    description: 'Any of main_text, play_mode, model_name/model_type, settings_* fields, name. Answers the updated record.',
  })
  @ApiQuery({ name: 'id', type: String })
  @ApiDtoBody(UpdateStoryDto)
  @ApiErrorResponses(400, 401, 404)
  async update(@CurrentUser() user: AuthUser, @Query() query: StoryIdQueryDto, @Body() dto: UpdateStoryDto) {
    return ok(await this.stories.update(user, query.id, dto));
  }

  @Post(':id/clone')
  @ApiOperation({ summary: 'Clone my own story as it is now', description: 'Answers `{id}` of the clone (level + 1).' })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async clone(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.stories.cloneOwn(user, id));
  }
}
