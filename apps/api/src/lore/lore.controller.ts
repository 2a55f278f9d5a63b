import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import {
  CreateLoreEntryDto,
  ImportLoreDto,
  LORE_CONTENT_MAX_LENGTH,
  LORE_ENTRY_LIMIT,
  LORE_TOTAL_CHARS_MAX,
  LocalizedDto,
  type Language,
  UpdateLoreEntryDto,
  UpdateLoreSettingsDto,
} from '@taleloom/contracts';
import type { Request, Response } from 'express';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { PRODUCT_NAME, storyFileNamePart } from '../common/file-names';
import { requestLanguage } from '../common/request-language';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { LoreService } from './lore.service';

const LORE_FILE_WORD: Record<Language, string> = { en: 'lore', 'zh-CN': '设定' };
const ANSWER = 'Answers the whole lore `{version, settings, entries}`.';
const NOT_YOURS = "Another user's story (public or not) answers 404 STORY_NOT_FOUND.";

/** A story's lore: entries that enter the prompt when their keywords appear (owner only). */
@ApiTags('lore')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('lore/:storyId')
export class LoreController {
  constructor(private readonly lore: LoreService) {}

  @Get()
  @ApiOperation({
    summary: "A story's lore",
    description:
      '`{version, settings: {scan_depth, token_budget, recursion_depth}, entries}`; each entry `{id, title, keys, secondary_keys, ' +
      'content, constant, enabled, order, case_sensitive, whole_words, scan_depth}`. ' + NOT_YOURS,
  })
  @ApiParam({ name: 'storyId', description: 'The story id (24 hex)' })
  @ApiErrorResponses(401, 404)
  async book(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string) {
    return ok(await this.lore.book(user, storyId));
  }

  @Get('export')
  @ApiOperation({
    summary: "Download a story's lore as a file",
    description:
      'A SillyTavern World Info book (`{name, entries: {"0": {key, keysecondary, comment, content, constant, order, disable, ' +
      'caseSensitive, matchWholeWords, ...}}, extensions: {taleloom: {settings}}}`) named after the story: SillyTavern imports it, ' +
      'and `POST /api/upload_parse` reads it back (`lore`) for a new story or `POST /api/lore/{storyId}/import`. ' + NOT_YOURS,
  })
  @ApiParam({ name: 'storyId' })
  @ApiProduces('application/json')
  @ApiErrorResponses(401, 404)
  async exportFile(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string, @Req() req: Request, @Res() res: Response) {
    const { name, book } = await this.lore.exportFile(user, storyId);
    const language = requestLanguage(req);
    res.attachment(`${PRODUCT_NAME[language]}-${storyFileNamePart(name, language)}-${LORE_FILE_WORD[language]}.json`);
    res.type('application/json').send(JSON.stringify(book, null, 2));
  }

  @Post('entries')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a lore entry',
    description:
      `Title and content required (content up to ${LORE_CONTENT_MAX_LENGTH.toLocaleString('en')} characters); keywords are trimmed, ` +
      `blanks and repeats dropped. At most ${LORE_ENTRY_LIMIT.toLocaleString('en')} entries (409 LORE_ENTRY_LIMIT) and ` +
      `${LORE_TOTAL_CHARS_MAX.toLocaleString('en')} characters in all (413 LORE_TOO_LARGE). ${ANSWER} ${NOT_YOURS}`,
  })
  @ApiParam({ name: 'storyId' })
  @ApiDtoBody(CreateLoreEntryDto)
  @ApiErrorResponses(400, 401, 404, 409)
  async create(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string, @Body() dto: CreateLoreEntryDto) {
    return ok(await this.lore.create(user, storyId, dto));
  }

  @Patch('entries/:entryId')
  @ApiOperation({
    summary: 'Change a lore entry',
    description: `The fields sent change (at least one: else 400 NOTHING_TO_UPDATE); \`scan_depth: null\` follows the story's setting. An unknown entry is 404 LORE_ENTRY_NOT_FOUND. ${ANSWER} ${NOT_YOURS}`,
  })
  @ApiParam({ name: 'storyId' })
  @ApiParam({ name: 'entryId' })
  @ApiDtoBody(UpdateLoreEntryDto)
  @ApiErrorResponses(400, 401, 404)
  async update(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string, @Param('entryId') entryId: string, @Body() dto: UpdateLoreEntryDto) {
    return ok(await this.lore.update(user, storyId, entryId, dto));
  }

  @Delete('entries/:entryId')
  @ApiOperation({ summary: 'Delete a lore entry', description: `${ANSWER} ${NOT_YOURS}` })
  @ApiParam({ name: 'storyId' })
  @ApiParam({ name: 'entryId' })
  @ApiErrorResponses(401, 404)
  async remove(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string, @Param('entryId') entryId: string) {
    return ok(await this.lore.remove(user, storyId, entryId));
  }

  @Post('entries/:entryId/duplicate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Duplicate a lore entry', description: `The copy comes right after it, titled as a copy in the request's language. ${ANSWER} ${NOT_YOURS}` })
  @ApiParam({ name: 'storyId' })
  @ApiParam({ name: 'entryId' })
  @ApiDtoBody(LocalizedDto)
  @ApiErrorResponses(400, 401, 404, 409)
  async duplicate(
    @CurrentUser() user: AuthUser,
    @Param('storyId') storyId: string,
    @Param('entryId') entryId: string,
    @Body() _dto: LocalizedDto,
    @Req() req: Request,
  ) {
    return ok(await this.lore.duplicate(user, storyId, entryId, requestLanguage(req)));
  }

  @Put('settings')
  @ApiOperation({
    summary: "Change the story's lore settings",
    description: `\`scan_depth\` (characters of the newest text scanned), \`token_budget\` (tokens the lore may take of a prompt), \`recursion_depth\` (rounds of entries triggered by entries). ${ANSWER} ${NOT_YOURS}`,
  })
  @ApiParam({ name: 'storyId' })
  @ApiDtoBody(UpdateLoreSettingsDto)
  @ApiErrorResponses(400, 401, 404)
  async settings(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string, @Body() dto: UpdateLoreSettingsDto) {
    return ok(await this.lore.settings(user, storyId, dto));
  }

  @Post('import')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import lore entries',
    description:
      "`book` as `POST /api/upload_parse` answers it in `lore` (a character card's book, or a txt/md file's lore block); `mode` " +
      `append (after the story's entries) or replace. The book's settings replace the story's. ${ANSWER} ${NOT_YOURS}`,
  })
  @ApiParam({ name: 'storyId' })
  @ApiDtoBody(ImportLoreDto)
  @ApiErrorResponses(400, 401, 404, 409)
  async import(@CurrentUser() user: AuthUser, @Param('storyId') storyId: string, @Body() dto: ImportLoreDto) {
    return ok(await this.lore.import(user, storyId, dto));
  }
}
