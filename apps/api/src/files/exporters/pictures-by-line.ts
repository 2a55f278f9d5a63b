import { placePictures } from '@taleloom/contracts';

/** A picture to put into an exported document. */
export interface ExportedPicture {
  from: number;
  to: number;
  excerpt: string;
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
  /** Alt text: the prompt it was drawn from. */
  alt: string;
  demo: boolean;
}

/**
 * Which pictures follow which line of `content` (lines split on newlines, as the exporters write them):
 * each goes after the last line of the passage it shows, found in the content as it is.
 */
export function picturesByLine(content: string, pictures: readonly ExportedPicture[]): Map<number, ExportedPicture[]> {
  const byLine = new Map<number, ExportedPicture[]>();
  if (pictures.length === 0) return byLine;
  const starts = [0];
  for (const m of content.matchAll(/\r?\n/g)) starts.push(m.index + m[0].length);
  for (const { picture, to } of placePictures(content, pictures)) {
    const last = Math.max(0, to - 1);
    let line = 0;
    let high = starts.length - 1;
    // The last line starting at or before the passage's last character.
    while (line < high) {
      const mid = (line + high + 1) >> 1;
      if (starts[mid] <= last) line = mid;
      else high = mid - 1;
    }
    byLine.set(line, [...(byLine.get(line) ?? []), picture]);
  }
  return byLine;
}

/** Display size: at most `maxWidth` wide, keeping the picture's proportions. */
export function fitWidth(picture: Pick<ExportedPicture, 'width' | 'height'>, maxWidth: number): { width: number; height: number } {
  const width = picture.width || maxWidth;
  const height = picture.height || maxWidth;
  const scale = Math.min(1, maxWidth / width);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}
