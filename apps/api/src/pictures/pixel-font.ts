// A 5x7 pixel font for the few letters the demo pictures print (their "DEMO" badge).
const GLYPHS: Record<string, string[]> = {
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

export const GLYPH_WIDTH = 5;
export const GLYPH_HEIGHT = 7;

/** Calls `dot(x, y)` for every lit cell of `text` (cells of 1; the caller scales), one blank column between letters. */
export function eachTextDot(text: string, dot: (x: number, y: number) => void): void {
  [...text.toUpperCase()].forEach((ch, i) => {
    const glyph = GLYPHS[ch] ?? GLYPHS[' '];
    glyph.forEach((row, y) => {
      for (let x = 0; x < GLYPH_WIDTH; x++) if (row[x] === '1') dot(i * (GLYPH_WIDTH + 1) + x, y);
    });
  });
}

/** Width in cells of `text` printed by eachTextDot. */
export const textCells = (text: string) => Math.max(0, text.length * (GLYPH_WIDTH + 1) - 1);
