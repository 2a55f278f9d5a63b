// Writes gpt-tokenizer's o200k_base ranks as JSON beside the built tokenizer module (see
// src/generation/tokenizer.ts): the API reads them from there instead of compiling the package's
// 2.4 MB array literal. Run by `pnpm build`; `node scripts/token-ranks.cjs <dir>` writes them to <dir>.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const dir = resolve(process.argv[2] ?? join(__dirname, '..', 'dist', 'generation'));
const ranks = require('gpt-tokenizer/cjs/bpeRanks/o200k_base').default;
if (!Array.isArray(ranks) || ranks.length < 100_000) throw new Error('token-ranks: gpt-tokenizer did not give the o200k_base ranks');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'o200k_base.ranks.json'), JSON.stringify(ranks));
