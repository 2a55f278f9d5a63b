import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { LoadArchiveDto, SaveArchiveDto } from '@taleloom/contracts';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { ArchivesService } from './archives.service';

@ApiTags('archive')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('archive')
export class ArchivesController {
  constructor(private readonly archives: ArchivesService) {}

  @Get(':storyId')
  @ApiOperation({
    summary: "A story's archives",
    description:
      'The occupied slots of your own story, slot order: `{_id, story_id, archive_index, time (seconds), ' +
      'current_word_count, story_ending}`. Slots 0..998 are saves; -1 is the public version. ' +
      "Another user's story answers 404 STORY_NOT_FOUND.",
  })
  @ApiParam({ name: 'storyId', description: 'The story id (24 hex)' })
  @ApiErrorResponses(401, 404)
  async list(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string) {
    return ok(await this.archives.list(user, storyId));
  }

  @Post('save')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Save the story into a slot',
    description:
      'Snapshots the full state of your own story into `archive_index` 0..998, replacing what the slot held. ' +
      'Answers the slot entry. A slot outside 0..998 is 400 VALIDATION_FAILED; another user\'s story 404 STORY_NOT_FOUND.',
  })
  @ApiDtoBody(SaveArchiveDto)
  @ApiErrorResponses(400, 401, 404)
  async save(@CurrentUser() user: AuthUser, @Body() dto: SaveArchiveDto) {
    return ok(await this.archives.save(user, dto));
  }

  @Post('load')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Restore the story from an archive',
    description:
      'Writes the archive\'s full state back into its story (yours only) and marks the story as a recovery point ' +
      '(`recovery_point: true`, `recovery_point_id` = the archive id). Answers `{story_id, archive_index}`. ' +
      "Another user's archive answers 404 ARCHIVE_NOT_FOUND, like a missing one. While a turn of the story is being " +
      'written the load is refused with 409 GENERATION_IN_PROGRESS (BRANCH_SWITCHING while a change of branch runs).',
  })
  @ApiDtoBody(LoadArchiveDto)
  @ApiErrorResponses(400, 401, 404, 409)
  async load(@CurrentUser() user: AuthUser, @Body() dto: LoadArchiveDto) {
    return ok(await this.archives.load(user, dto));
  }
}
