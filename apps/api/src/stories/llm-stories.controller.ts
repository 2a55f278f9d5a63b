import { Body, Controller, Get, Headers, Param, Patch, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CreateStoryDto, StoryIdQueryDto, UpdateStoryDto, type StoryChangeData, type StoryData } from '@taleloom/contracts';
import type { Response } from 'express';
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
    description:
      'Any of main_text (the whole text) or main_text_edit (one change of it: `removed` at `at` becomes `inserted`, in a ' +
      'text of `base_length` UTF-16 units; 409 STORY_TEXT_CHANGED when the stored text is no longer that one), play_mode, ' +
      'model_name/model_type, settings_* fields, name. Answers the updated record; with `Prefer: return=minimal`, the ' +
      'record without main_text and with main_text_length (what a client that sent the change needs).',
  })
  @ApiQuery({ name: 'id', type: String })
  @ApiHeader({ name: 'Prefer', required: false, description: '`return=minimal`: answer without the text (RFC 7240)' })
  @ApiDtoBody(UpdateStoryDto)
  @ApiErrorResponses(400, 401, 404, 409, 413)
  async update(
    @CurrentUser() user: AuthUser,
    @Query() query: StoryIdQueryDto,
    @Body() dto: UpdateStoryDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const story = await this.stories.update(user, query.id, dto);
    if (!prefersMinimal(prefer)) return ok(story);
    res.setHeader('Preference-Applied', 'return=minimal');
    return ok(withoutText(story));
  }

  @Post(':id/clone')
  @ApiOperation({ summary: 'Clone my own story as it is now', description: 'Answers `{id}` of the clone (level + 1).' })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async clone(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.stories.cloneOwn(user, id));
  }
}

/** Whether a `Prefer` header asks for `return=minimal` (RFC 7240: comma-separated, case-insensitive tokens). */
function prefersMinimal(prefer: string | undefined): boolean {
  return Boolean(prefer?.split(',').some((p) => p.split(';')[0].trim().toLowerCase().replace(/\s+/g, '') === 'return=minimal'));
}

function withoutText({ main_text: text, ...rest }: StoryData): StoryChangeData {
  return { ...rest, main_text_length: text.length };
}
