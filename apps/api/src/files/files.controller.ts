import { Body, Controller, HttpCode, Post, Req, Res, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorCode, ExportDto, UPLOAD_MAX_BYTES } from '@taleloom/contracts';
import type { Request, Response } from 'express';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AppException } from '../common/app-exception';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { PicturesService } from '../pictures/pictures.service';
import { StoriesService } from '../stories/stories.service';
import { requestLanguage } from '../common/request-language';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { ExportService, PICTURE_FORMATS } from './export.service';
import { contentDisposition } from './exporters/content-disposition';
import { UploadInterceptor } from './upload.interceptor';
import { UploadParserService, type UploadedFile as ParsedUpload } from './upload-parser.service';

@ApiTags('files')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller()
export class FilesController {
  constructor(
    private readonly parser: UploadParserService,
    private readonly exporter: ExportService,
    private readonly pictures: PicturesService,
    private readonly stories: StoriesService,
  ) {}

  @Post('upload_parse')
  @HttpCode(200)
  @UseInterceptors(UploadInterceptor)
  @ApiOperation({
    summary: 'Read a manuscript or character card into text',
    description:
      `Multipart field \`file\`, at most ${UPLOAD_MAX_BYTES} bytes. Accepted: .txt and .md (UTF-8, UTF-16 with or ` +
      'without BOM, GB18030/GBK detected), .docx, .rtf, and .png character cards (V1, V2, V3; `ccv3` read before ' +
      '`chara`). The type is decided by the content. Answers `data:{content, kind, encoding?, card?, fileName, characters}`. ' +
      'Errors: FILE_TYPE_UNSUPPORTED 415, FILE_TOO_LARGE 413, FILE_CONTENT_TOO_LARGE 413 (zip bomb), FILE_EMPTY 400, ' +
      'FILE_UPLOAD_FAILED 400, FILE_PARSE_FAILED 422, CHARACTER_CARD_MISSING 422.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: '.txt, .md, .png, .docx or .rtf, at most 10 MB' },
        language: { type: 'string', enum: ['en', 'zh-CN'], description: 'Language of messages and card headings' },
      },
    },
  })
  @ApiResponse({ status: 413, description: 'FILE_TOO_LARGE or FILE_CONTENT_TOO_LARGE' })
  @ApiResponse({ status: 415, description: 'FILE_TYPE_UNSUPPORTED' })
  @ApiResponse({ status: 422, description: 'FILE_PARSE_FAILED or CHARACTER_CARD_MISSING' })
  @ApiErrorResponses(400, 401)
  async uploadParse(@UploadedFile() file: ParsedUpload | undefined, @Req() req: Request) {
    if (!file) throw new AppException(ErrorCode.FILE_UPLOAD_FAILED, [{ field: 'file', constraints: ['no file in field "file"'] }]);
    return ok(await this.parser.parse(file, requestLanguage(req)));
  }

  @Post('export')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Export story text as a file',
    description:
      'Answers the file itself (markdown, txt, html, rtf or docx) with `Content-Disposition: attachment` carrying an ' +
      'ASCII `filename` and an RFC 5987 `filename*` (UTF-8) named `{product}-{story}-{timestamp}.{ext}`. With `story_id` ' +
      '(a story the caller may read), html and docx carry its ready pictures after the passages they show (404 STORY_NOT_FOUND otherwise), ' +
      'and `content` may be left out: the story\'s text (and name) as the caller reads it is exported.',
  })
  @ApiDtoBody(ExportDto)
  @ApiProduces('application/octet-stream')
  @ApiResponse({ status: 200, description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrorResponses(400, 401, 404)
  async export(@CurrentUser() user: AuthUser, @Body() dto: ExportDto, @Req() req: Request, @Res() res: Response) {
    // No content: the story's text as the caller reads it (theirs, or the public version), and its name.
    const story = dto.content === undefined && dto.story_id ? await this.stories.get(user, dto.story_id) : undefined;
    const content = dto.content ?? story?.main_text ?? '';
    const pictures = dto.story_id && PICTURE_FORMATS.includes(dto.format) ? await this.pictures.forExport(user, dto.story_id) : [];
    const exported = pictures.map(({ file, prompt, ...p }) => ({ ...p, data: file.data, contentType: file.contentType, alt: prompt }));
    const file = await this.exporter.export({ ...dto, content, name: dto.name ?? story?.name }, requestLanguage(req), undefined, exported);
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', contentDisposition(file.fileName));
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).end(file.body);
  }
}
