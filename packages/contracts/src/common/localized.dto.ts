import { IsIn, IsOptional } from 'class-validator';
import { SUPPORTED_LANGUAGES, type Language } from './api-response';

/**
 * Base of every request body: the web client adds `language` to each POST body,
 * and the API answers messages in it.
 */
export class LocalizedDto {
  @IsOptional()
  @IsIn(SUPPORTED_LANGUAGES as unknown as string[])
  language?: Language;
}
