import { IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { EXPORT_CONTENT_MAX_CHARS, EXPORT_FORMATS, type ExportFormat } from './files.constants';

/**
 * Body of `POST /api/export`: the text to export and the format; `name` (the story name) names the file.
 * With `story_id`, `content` may be left out: the story's text as the caller reads it is exported (a
 * long story is not uploaded to be downloaded again).
 */
export class ExportDto extends LocalizedDto {
  @ValidateIf((o: ExportDto) => o.content !== undefined || o.story_id === undefined)
  @IsString()
  @MaxLength(EXPORT_CONTENT_MAX_CHARS)
  content?: string;

  @IsIn(EXPORT_FORMATS as unknown as string[])
  format!: ExportFormat;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  /**
   * The story the content comes from: its ready pictures go into html and docx exports, placed
   * beside the passages they show. Only a story the caller may read; ignored by the other formats.
   */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  story_id?: string;
}
