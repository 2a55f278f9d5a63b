// Characters that start a Markdown block at the beginning of a line (heading, quote, list, code fence,
// rule, table) or mark up inline text: escaped, so the story reads as it was written.
const BLOCK_START = /^([#>+\-=|~])/;
const ORDERED = /^(\d+)([.)])/;
const INLINE = /([\\`*_[\]<>])/g;

function escapeLine(line: string): string {
  return line
    .replace(INLINE, '\\$1')
    .replace(BLOCK_START, '\\$1')
    .replace(ORDERED, '$1\\$2');
}

/**
 * The story as Markdown for reading: the title as its heading, then each line of the text as a
 * paragraph of its own (Markdown joins lines that are not separated by a blank line), empty lines
 * dropped, characters that Markdown would read as markup escaped. A reading format: .txt stays the
 * lossless one.
 */
export function exportMarkdown(content: string, title: string): string {
  const paragraphs = content
    .replace(/\r\n?/g, '\n')
    .split('\n')
    // Leading spaces or a tab would make a code block: indentation is dropped (full-width spaces stay).
    .map((line) => line.replace(/^[ \t]+/, '').trimEnd())
    .filter((line) => line.trim() !== '')
    .map(escapeLine);
  return `# ${escapeLine(title.trim())}\n\n${paragraphs.join('\n\n')}\n`;
}
