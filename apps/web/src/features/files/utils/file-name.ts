import { EXPORT_EXTENSIONS, type ExportFormat } from '@taleloom/contracts';

/** `YYYYMMDD-HHmmss` in local time. */
export function localTimestamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** The client's own name when the answer carries none: `{product}-{story}-{timestamp}.{ext}`. */
export function fallbackFileName(product: string, story: string, format: ExportFormat, now = new Date()): string {
  const safe = story.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim().slice(0, 80);
  return `${product}-${safe}-${localTimestamp(now)}.${EXPORT_EXTENSIONS[format]}`;
}
