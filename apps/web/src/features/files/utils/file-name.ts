import { EXPORT_EXTENSIONS, type ExportFormat } from '@taleloom/contracts';

/** The file name from a Content-Disposition header: `filename*` (RFC 5987) first, then `filename`. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
  const name = plain?.[1] ?? plain?.[2]?.trim();
  return name || null;
}

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
