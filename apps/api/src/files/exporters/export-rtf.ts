/**
 * An RTF document: ASCII is written as is (with \ { } escaped), everything else as \uN with a `?`
 * fall-back, so any reader shows Chinese without guessing a code page. One \par per line.
 */
export function exportRtf(content: string): string {
  const head =
    '{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1' +
    '{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fnil\\fcharset134 SimSun;}}' +
    '\\viewkind4\\f0\\fs24\n';
  const body = content
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\\{}\t\u0000-\u0008\u000b-\u001f]|[^\u0000-\u007e]/g, escapeChar)
    .split('\n')
    .join('\\par\n');
  return `${head}${body}}`;
}

function escapeChar(ch: string): string {
  if (ch === '\\' || ch === '{' || ch === '}') return `\\${ch}`;
  if (ch === '\t') return '\\tab ';
  const c = ch.charCodeAt(0);
  if (c < 0x20) return '';
  // Surrogate halves go out one by one (signed 16-bit), as RTF wants.
  return `\\u${c > 32767 ? c - 65536 : c}?`;
}
