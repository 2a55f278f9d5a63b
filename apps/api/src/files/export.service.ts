import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ErrorCode, EXPORT_EXTENSIONS, type ExportDto, type ExportFormat, type Language } from '@taleloom/contracts';
import { join } from 'node:path';
import { AppException } from '../common/app-exception';
import { PRODUCT_NAME, storyFileNamePart, UNTITLED } from '../common/file-names';
import { fileTimestamp } from './exporters/content-disposition';
import { storyLanguage } from '../common/story-language';
import { exportHtml } from './exporters/export-html';
import { exportMarkdown } from './exporters/export-markdown';
import { exportRtf } from './exporters/export-rtf';
import type { DocxJob } from './exporters/export-docx.worker';
import type { ExportedPicture } from './exporters/pictures-by-line';
import { asBuffer, WorkerThread } from '../common/worker-thread';

export interface ExportedFile {
  body: Buffer;
  contentType: string;
  fileName: string;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  markdown: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  rtf: 'application/rtf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};


/** Formats that carry the story's pictures. */
export const PICTURE_FORMATS: readonly ExportFormat[] = ['html', 'docx'];

/** Turns story text into a downloadable file of the chosen format (html and docx with its pictures). */
@Injectable()
export class ExportService implements OnApplicationShutdown {
  private readonly logger = new Logger(ExportService.name);
  // A Word document is built on a thread of its own (WorkerThread): on the app's thread a 200,000-character
  // story's held every stream of the process for about 300 ms (1,000,000 characters: about 600 ms).
  private readonly docx = new WorkerThread<DocxJob, Uint8Array>(join(__dirname, 'exporters', 'export-docx.worker'));

  async onApplicationShutdown(): Promise<void> {
    await this.docx.close();
  }

  async export(dto: ExportDto & { content: string }, language: Language, now = new Date(), pictures: readonly ExportedPicture[] = []): Promise<ExportedFile> {
    const story = storyFileNamePart(dto.name ?? '', language);
    const fileName = `${PRODUCT_NAME[language]}-${story}-${fileTimestamp(now)}.${EXPORT_EXTENSIONS[dto.format]}`;
    const title = dto.name?.trim() || UNTITLED[language];
    try {
      return { body: await this.render(dto.content, dto.format, title, language, pictures), contentType: CONTENT_TYPES[dto.format], fileName };
    } catch (err) {
      this.logger.error(`export to ${dto.format} failed: ${(err as Error).stack ?? String(err)}`);
      throw new AppException(ErrorCode.EXPORT_FAILED);
    }
  }

  private async render(content: string, format: ExportFormat, title: string, language: Language, pictures: readonly ExportedPicture[]): Promise<Buffer> {
    switch (format) {
      case 'markdown':
        return Buffer.from(exportMarkdown(content, title), 'utf8');
      case 'txt':
        return Buffer.from(content, 'utf8');
      case 'html':
        // The page's language is the story's (what a reader's browser, screen reader or translator
        // should assume), like the notes beside its pictures; the file name follows the screen's.
        return Buffer.from(exportHtml(content, title, storyLanguage(content) === 'zh' ? 'zh-CN' : 'en', pictures), 'utf8');
      case 'rtf':
        return Buffer.from(exportRtf(content), 'latin1');
      case 'docx':
        return asBuffer(await this.docx.run({ content, title, pictures }));
    }
  }
}
