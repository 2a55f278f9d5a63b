import type { Language } from '@taleloom/contracts';

/** The product's name in each language, the first part of every downloaded file's name. */
export const PRODUCT_NAME: Record<Language, string> = { en: 'TaleLoom', 'zh-CN': '织梦故事' };
/** What a story without a name is called (in file names and titles). */
export const UNTITLED: Record<Language, string> = { en: 'Untitled', 'zh-CN': '未命名' };

/** Characters not allowed in file names on common systems become `_`; length is capped. */
export function safeFileNamePart(name: string): string {
  return name.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim().slice(0, 80);
}

/** A story's name as it goes into a file name: made safe, or "Untitled" in the language. */
export function storyFileNamePart(name: string, language: Language): string {
  return safeFileNamePart(name) || UNTITLED[language];
}
