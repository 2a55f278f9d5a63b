import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

// Text files worth compressing; images and fonts that are compressed already are left alone.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Writes `file.br` and `file.gz` beside a text file of at least MIN_BYTES. */
export function compressFile(file: string): void {
  const body = readFileSync(file);
  if (body.length < MIN_BYTES) return;
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
}

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) beside every text file of the
 * build, once, at build time: the API's static server and the nginx image send them as they are with
 * Content-Encoding, so no request pays for compressing.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'taleloom-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) if (COMPRESSIBLE.test(file)) compressFile(file);
    },
  };
}
