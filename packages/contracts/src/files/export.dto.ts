import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { EXPORT_CONTENT_MAX_CHARS, EXPORT_FORMATS, type ExportFormat } from './files.constants';

/** Body of `POST /api/export`: the text to export and the format; `name` (the story name) names the file. */
export class ExportDto extends LocalizedDto {
  @IsString()
  @MaxLength(EXPORT_CONTENT_MAX_CHARS)
  content!: string;

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
