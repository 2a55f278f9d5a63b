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
body, h1 { font-family: Georgia, "Noto Serif", "Noto Serif CJK SC", "Source Han Serif SC", "Songti SC", SimSun, serif; }
main { font-size: 1.125rem; line-height: 1.85; overflow-wrap: anywhere; }
@media (prefers-color-scheme: dark) { body { background: #1d1c1a; color: #e6e1d6; } }
@media print { body { background: #fff; color: #000; } main { padding: 0; } }
`;

const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** A standalone, escaped HTML page of the story: one paragraph per line. */
export function exportHtml(content: string, title: string, lang: string): string {
  const paragraphs = content
    .split(/\r?\n/)
    .map((line) => (line.trim() ? `<p>${escapeHtml(line)}</p>` : '<p class="blank"><br></p>'))
    .join('\n');
  return (
    `<!doctype html>\n<html lang="${escapeHtml(lang)}">\n<head>\n<meta charset="utf-8">\n` +
    // Defence in depth for a file opened anywhere: nothing but the page's own inline style may load or run.
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n` +
    `<style>${STYLE}</style>\n</head>\n<body>\n<main>\n<h1>${escapeHtml(title)}</h1>\n${paragraphs}\n</main>\n</body>\n</html>\n`
  );
}
