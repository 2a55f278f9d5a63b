import { pictureNotes } from './picture-notes';
import { fitWidth, picturesByLine, type ExportedPicture } from './pictures-by-line';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// Styled for reading: a narrow measure, generous leading, serif faces with CJK fall-backs, dark mode.
const STYLE = `
:root { color-scheme: light dark; }
body { margin: 0; background: #faf8f3; color: #2b2b2b; }
main { max-width: 42rem; margin: 0 auto; padding: 3rem 1.25rem 5rem; }
h1 { font-size: 1.75rem; line-height: 1.3; margin: 0 0 2rem; }
p { margin: 0 0 1em; text-indent: 2em; }
p.blank { text-indent: 0; }
figure { margin: 0.5em auto 1.5em; text-align: center; }
figure img { max-width: 100%; height: auto; border-radius: 6px; }
figcaption { font-size: 0.8rem; color: #6b7280; }
body, h1 { font-family: Georgia, "Noto Serif", "Noto Serif CJK SC", "Source Han Serif SC", "Songti SC", SimSun, serif; }
main { font-size: 1.125rem; line-height: 1.85; overflow-wrap: anywhere; }
@media (prefers-color-scheme: dark) { body { background: #1d1c1a; color: #e6e1d6; } }
@media print { body { background: #fff; color: #000; } main { padding: 0; } }
`;

const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** A standalone, escaped HTML page of the story: one paragraph per line, its pictures inline. */
export function exportHtml(content: string, title: string, lang: string, pictures: readonly ExportedPicture[] = []): string {
  const after = picturesByLine(content, pictures);
  const caption = pictureNotes(content).demo;
  const paragraphs = content
    .split(/\r?\n/)
    .map((line, i) => {
      const paragraph = line.trim() ? `<p>${escapeHtml(line)}</p>` : '<p class="blank"><br></p>';
      const figures = (after.get(i) ?? []).map((p) => figure(p, caption));
      return [paragraph, ...figures].join('\n');
    })
    .join('\n');
  return (
    `<!doctype html>\n<html lang="${escapeHtml(lang)}">\n<head>\n<meta charset="utf-8">\n` +
    // Defence in depth for a file opened anywhere: nothing but the page's own inline style may load or run.
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n` +
    `<style>${STYLE}</style>\n</head>\n<body>\n<main>\n<h1>${escapeHtml(title)}</h1>\n${paragraphs}\n</main>\n</body>\n</html>\n`
  );
}

// The picture itself travels inside the page (a data URI), so the file stands alone.
function figure(p: ExportedPicture, demoCaption: string): string {
  const { width, height } = fitWidth(p, 512);
  const img = `<img src="data:${escapeHtml(p.contentType)};base64,${p.data.toString('base64')}" alt="${escapeHtml(p.alt)}" width="${width}" height="${height}">`;
  return `<figure>${img}${p.demo ? `<figcaption>${escapeHtml(demoCaption)}</figcaption>` : ''}</figure>`;
}
