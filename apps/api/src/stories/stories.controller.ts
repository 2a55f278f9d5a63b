import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ClonePublicStoryDto, RenameStoryDto, StoryIdQueryDto, StoryListQueryDto } from '@taleloom/contracts';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { StoriesService } from './stories.service';

/** The `/api/user/...` story endpoints: lists, the square, checks, rename, publish and private. */
@ApiTags('stories')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('user')
export class StoriesController {
  constructor(private readonly stories: StoriesService) {}

  @Get('story-list')
  @ApiOperation({
    summary: 'My stories, or the story square with public=true',
    description:
      'Pinned first, then newest (`time`), paged (`page`, `pageSize` up to 50; `pagination.hasMore` says whether another page follows), ' +
      'filtered by a part of the name (`search`). Items carry `first-line`/`last-line` snippets and the counters of the clones.',
  })
  @ApiQuery({ name: 'public', required: false, enum: ['true', 'false'], description: 'true: the story square' })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'From 1 (default 1)' })
  @ApiQuery({ name: 'pageSize', required: false, type: Number, description: '1 to 50 (default 20)' })
  @ApiQuery({ name: 'search', required: false, type: String, description: 'Part of the name, case-insensitive' })
  @ApiErrorResponses(400, 401)
  async list(@CurrentUser() user: AuthUser, @Query() query: StoryListQueryDto) {
    return ok(await this.stories.list(user, query));
  }

  @Get('check-story/:id')
  @ApiOperation({
    summary: 'Whether the caller owns a story, and whether it is public',
    description: "Answers `{userHasStory, isPublic, originUserID}`; someone else's private story is 404.",
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async check(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.stories.check(user, id));
  }

  @Post('clone-public-story')
  @ApiOperation({
    summary: "Clone someone's public story into my list",
    description: 'Copies the public version (archive slot -1). The clone records `clonedFrom` and `level` + 1. Answers `{id}`.',
  })
  @ApiDtoBody(ClonePublicStoryDto)
  @ApiErrorResponses(400, 401, 404)
  async clonePublic(@CurrentUser() user: AuthUser, @Body() dto: ClonePublicStoryDto) {
    return ok(await this.stories.clonePublic(user, dto));
  }

  @Get('story')
  @ApiOperation({ summary: 'One story as a list item (mine, or public)' })
  @ApiQuery({ name: 'id', type: String })
  @ApiErrorResponses(400, 401, 404)
  async summary(@CurrentUser() user: AuthUser, @Query() query: StoryIdQueryDto) {
    return ok(await this.stories.summary(user, query.id));
  }

  @Patch('story')
  @ApiOperation({ summary: 'Rename my story', description: 'An empty `storyName` makes it untitled.' })
  @ApiDtoBody(RenameStoryDto)
  @ApiErrorResponses(400, 401, 404)
  async rename(@CurrentUser() user: AuthUser, @Body() dto: RenameStoryDto) {
    return ok(await this.stories.rename(user, dto));
  }

  @Post('public/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Publish my story, or update its public version',
    description: 'Snapshots the story into the public archive slot -1 (what others see and clone) and marks it public.',
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async publish(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.stories.publish(user, id));
  }

  @Post('private/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Make my story private',
    description: 'It leaves the square and its links stop working at once; the public version is deleted.',
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async unpublish(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.stories.unpublish(user, id));
  }
}
