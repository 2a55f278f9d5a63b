import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { PicturesService } from './pictures.service';

// A picture's bytes never change (a new drawing is a new id): caches may keep it, privately.
const CACHE_CONTROL = 'private, max-age=31536000, immutable';

@ApiTags('pictures')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('images')
export class ImagesController {
  constructor(private readonly pictures: PicturesService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'A story picture (the image file)',
    description:
      'Only for a user who may read a story that references the picture (their own story, a clone of theirs, or a public story); ' +
      'anyone else gets 404 PICTURE_NOT_FOUND. Answers with `Cache-Control: private, max-age=31536000, immutable` and an `ETag` ' +
      '(`If-None-Match` answers 304).',
  })
  @ApiParam({ name: 'id' })
  @ApiProduces('image/png', 'image/jpeg', 'image/webp', 'image/gif')
  @ApiResponse({ status: 200, description: 'The picture', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrorResponses(401, 404)
  async get(@CurrentUser() user: AuthUser, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const file = await this.pictures.file(user, id);
    const etag = `"${id}"`;
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.setHeader('ETag', etag);
    res.setHeader('Vary', 'Authorization');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Length', String(file.length));
    res.status(200).end(file.data);
  }
}
