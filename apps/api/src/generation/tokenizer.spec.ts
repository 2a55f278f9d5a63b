import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode as packageDecode, encode as rawPackageEncode } from 'gpt-tokenizer';
import packageRanks from 'gpt-tokenizer/cjs/bpeRanks/o200k_base';
import { TokenCounter } from './token-counter';
import { tokenizerFrom } from './tokenizer';

// The package's encoder, with special tokens counted as text as the tokenizer does.
const packageEncode = (text: string) => rawPackageEncode(text, { disallowedSpecial: new Set() });

const TEXTS = [
  'The lighthouse keeper watched the storm roll in over the grey water.',
  '灯塔看守人注视着风暴从灰色的海面上袭来。她朝船的方向发了两次信号。',
  'using namespace std;\n\n  tabs\tand emoji 🌊🏮 and <|endoftext|> as plain text',
  '',
];

describe('tokenizer (o200k_base ranks as JSON)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'taleloom-ranks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the build script writes exactly the package ranks, and the tokenizer read from them encodes as the package does', () => {
    const run = spawnSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'token-ranks.cjs'), dir], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const file = join(dir, 'o200k_base.ranks.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(packageRanks);

    const fromJson = tokenizerFrom(file);
    for (const text of TEXTS) {
      const tokens = fromJson.encode(text);
      expect(tokens).toEqual(packageEncode(text));
      expect(fromJson.decode(tokens)).toBe(packageDecode(tokens));
    }
  });

  it('counts "<|endoftext|>" and chat-template tokens in a story as text (the package default throws on them)', () => {
    const text = 'She wrote <|endoftext|> on the wall, then <|im_start|>system and <|im_end|>.';
    expect(() => rawPackageEncode(text)).toThrow(/Disallowed special token/);
    expect(new TokenCounter().count(text)).toBe(packageEncode(text).length);
    expect(new TokenCounter().tailThatFits(text, 5).tokens).toBeLessThanOrEqual(5);
  });

  it('without the JSON file (run from the sources) it reads the package module', () => {
    const fromPackage = tokenizerFrom(join(dir, 'missing.json'));
    for (const text of TEXTS) expect(fromPackage.encode(text)).toEqual(packageEncode(text));
  });
});
