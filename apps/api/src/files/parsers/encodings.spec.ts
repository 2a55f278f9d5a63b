import * as iconv from 'iconv-lite';
import { decodeText } from './decode-text';
import { SAMPLES } from './encoding-samples';

// Every common encoding of Chinese text (and, as a bonus, of Japanese and Korean), from texts short
// and long, encoded here with iconv-lite: decodeText reads back exactly the text.
describe('decodeText: every common encoding of Chinese text', () => {
  const cases: [string, string, string][] = [];
  for (const [name, sample] of Object.entries(SAMPLES)) {
    for (const encoding of sample.encodings) {
      cases.push([`${name} short`, encoding, sample.short]);
      cases.push([`${name} long`, encoding, sample.long]);
    }
  }

  it.each(cases)('%s in %s', (_name, encoding, text) => {
    const bytes = iconv.encode(text, encoding);
    expect(decodeText(bytes)?.text).toBe(text);
  });

  it.each(['utf8', 'utf16le', 'utf16be'])('%s with a BOM', (encoding) => {
    const bytes = iconv.encode(SAMPLES.simplified.long, encoding, { addBOM: true });
    expect(decodeText(bytes)?.text).toBe(SAMPLES.simplified.long);
  });
});
