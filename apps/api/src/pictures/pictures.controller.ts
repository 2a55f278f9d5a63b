import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequestPictureDto } from '@taleloom/contracts';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { PicturesService } from './pictures.service';

/** A story's pictures: list them, ask for one, retry one. The files are served by ImagesController. */
@ApiTags('pictures')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('llm')
export class PicturesController {
  constructor(private readonly pictures: PicturesService) {}

  @Get(':id/pictures')
  @ApiOperation({
    summary: "The story's pictures",
    description:
      'My story, or the public version of a public story. Each picture: `status` pending | ready | failed (`errorCode`), ' +
      'the passage it shows (`from`..`to` in main_text, `excerpt`), `prompt`, `size`, `url` (`/api/images/{id}`) when ready, ' +
      '`demo` when the offline demo generator drew it. `generator` says whether this server draws pictures, with the demo, and at what price. ' +
      'Poll while one is pending.',
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async list(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.pictures.list(user, id));
  }

  @Post(':id/pictures')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Illustrate a passage',
    description:
      'Draws the passage `from`..`to` of my story (its picture is drawn again when it has one). Answers at once with the pending ' +
      'picture; the drawing runs on the server (the model writes the prompt from the passage and the character settings, then the ' +
      'images endpoint draws it). The price (IMAGES_POINTS) is held now and charged when the picture is ready; a failure charges ' +
      'nothing. Errors: 402 NOT_ENOUGH_POWER, 409 PICTURES_OFF / PICTURE_IN_PROGRESS / PICTURE_LIMIT, 400 PICTURE_PASSAGE_EMPTY, ' +
      '503 PICTURES_UNAVAILABLE.',
  })
  @ApiParam({ name: 'id' })
  @ApiDtoBody(RequestPictureDto)
  @ApiErrorResponses(400, 401, 402, 404, 409, 503)
  async request(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() dto: RequestPictureDto) {
    return ok(await this.pictures.request(user, id, dto));
  }

  @Post(':id/pictures/:pictureId/retry')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Draw a picture again',
    description: 'A failed picture (or a new version of a ready one), under the same rules and price as asking for it.',
  })
  @ApiParam({ name: 'id' })
  @ApiParam({ name: 'pictureId' })
  @ApiErrorResponses(401, 402, 404, 409, 503)
  async retry(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('pictureId') pictureId: string) {
    return ok(await this.pictures.retry(user, id, pictureId));
  }
}
