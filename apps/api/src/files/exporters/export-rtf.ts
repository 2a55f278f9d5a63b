/**
 * An RTF document: ASCII is written as is (with \ { } escaped), everything else as \uN with a `?`
 * fall-back, so any reader shows Chinese without guessing a code page. One \par per line.
 */
export function exportRtf(content: string): string {
  const parts: string[] = [
    '{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1',
    '{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fnil\\fcharset134 SimSun;}}',
    '\\viewkind4\\f0\\fs24\n',
  ];
  const lines = content.split(/\r?\n/);
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li];
    let out = '';
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x5c || c === 0x7b || c === 0x7d) out += '\\' + line[i];
      else if (c === 9) out += '\\tab ';
      else if (c >= 0x20 && c < 0x7f) out += line[i];
      else if (c < 0x20) continue;
      else out += `\\u${c > 32767 ? c - 65536 : c}?`; // surrogate halves go out one by one, as RTF wants
    }
    parts.push(out, li < lines.length - 1 ? '\\par\n' : '');
  }
  parts.push('}');
  return parts.join('');
}
