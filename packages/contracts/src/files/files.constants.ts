/** Largest upload accepted by `POST /api/upload_parse` (spec section 9): 10 MB. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** File name endings the upload accepts (spec sections 5 and 9). */
export const UPLOAD_EXTENSIONS = ['.txt', '.md', '.png', '.json', '.docx', '.rtf'] as const;

/** Formats of `POST /api/export`. */
export const EXPORT_FORMATS = ['markdown', 'txt', 'html', 'rtf', 'docx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** File name ending of each export format. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = {
  markdown: 'md',
  txt: 'txt',
  html: 'html',
  rtf: 'rtf',
  docx: 'docx',
};

/** An HTML export longer than this many characters asks for confirmation first (spec section 5). */
export const HTML_EXPORT_CONFIRM_CHARS = 100_000;

/** Longest content `POST /api/export` takes, in characters. */
export const EXPORT_CONTENT_MAX_CHARS = 2_000_000;
