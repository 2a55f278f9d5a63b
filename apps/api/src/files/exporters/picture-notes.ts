import type { Language } from '@taleloom/contracts';
import { storyLanguage } from '../../common/story-language';

/** The words an export adds beside a picture. */
export interface PictureNotes {
  /** Under a picture the offline demo generator drew. */
  demo: string;
  /** In place of a picture the document cannot hold (`format`: e.g. WebP). */
  omitted: (format: string) => string;
}

const NOTES: Record<Language, PictureNotes> = {
  en: {
    demo: 'Demo picture (drawn offline, not by an AI model)',
    omitted: (format) => `[A picture of this passage is left out: a Word document cannot hold its format (${format}). The HTML export shows it.]`,
  },
  'zh-CN': {
    demo: '演示图片（离线绘制，非 AI 模型生成）',
    omitted: (format) => `［此处的配图未放入：Word 文档无法容纳它的格式（${format}）。导出为 HTML 可以看到它。］`,
  },
};

// Named for people; the rest by their subtype (image/avif: AVIF).
const FORMAT_NAMES: Record<string, string> = { 'image/webp': 'WebP', 'image/jpeg': 'JPEG' };

/** The notes in the story's language, told from its text as play tells it (they are part of the story's document). */
export function pictureNotes(content: string): PictureNotes {
  return NOTES[storyLanguage(content) === 'zh' ? 'zh-CN' : 'en'];
}

/** A picture type as people name it. */
export function formatName(contentType: string): string {
  return FORMAT_NAMES[contentType] ?? (contentType.split('/')[1] ?? contentType).toUpperCase();
}
