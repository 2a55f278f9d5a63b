import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { compressFile } from './precompress';

const SCRIPT = new URL('./prerender-sign-in.mjs', import.meta.url);

/** The page of a pre-rendered screen in one language: `login.en.html`, `login.zh-CN.html`. */
const signInPage = (lang: string) => `login.${lang}.html`;

/**
 * The sign-in screen's HTML written into the page at build time, once per language, so a phone shows it
 * as soon as the page and its style sheets have come instead of after the app's scripts have downloaded
 * and run. Measured under the phone profile (bench:phone, one run, 5 loads each, English): the sign-in
 * form's largest paint at 1.1 s against 3.1 s. The markup is the app's own (src/app/prerender.tsx,
 * rendered by build/prerender-sign-in.mjs). Its fields take input at once: what is typed, the field in
 * focus, a tab pressed and a submit are kept by the page's first script and carried over when the app
 * renders over the page (src/app/carry-over.ts). The API serves it for /login in the visitor's language
 * (apps/api/src/web/serve-web-app.ts); every other path gets index.html.
 */
export function prerenderSignIn(langs: readonly string[]): Plugin {
  let outDir = 'dist';
  return {
    name: 'taleloom-prerender-sign-in',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      const work = mkdtempSync(join(tmpdir(), 'taleloom-prerender-'));
      try {
        const out = join(work, 'pages.json');
        const run = spawnSync(process.execPath, [SCRIPT.pathname, out, ...langs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        if (run.status !== 0) this.error(`pre-rendering the sign-in screen failed:\n${run.stdout}${run.stderr}`);
        const pages = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>;
        const index = readFileSync(join(outDir, 'index.html'), 'utf8');
        const sheets = signInSheets(outDir, index);
        for (const lang of langs) {
          const links = [...sheets.all, ...(sheets[lang] ?? [])].map((href) => `    <link rel="stylesheet" crossorigin href="${href}">\n`).join('');
          const page = index
            .replace(/<html lang="[^"]*">/, `<html lang="${lang}">`)
            .replace('</head>', `${links}  </head>`)
            .replace('<div id="root"></div>', `<div id="root" data-prerendered="${lang}">${pages[lang]}</div>`);
          if (!page.includes('data-prerendered')) this.error('pre-rendering the sign-in screen: index.html has no <div id="root"></div>');
          const file = join(outDir, signInPage(lang));
          writeFileSync(file, page);
          compressFile(file);
        }
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The sign-in screen's style sheets, for every language and for each (the Chinese phone form's), from
 * the list the page's first script carries (build/first-screen-preload.ts writes it).
 */
function signInSheets(outDir: string, index: string): Record<string, string[]> {
  const boot = /<script async src="\/?([^"]*first-screen-[^"]*\.js)"><\/script>/.exec(index);
  if (!boot) throw new Error('pre-rendering the sign-in screen: index.html has no first-screen script');
  const source = readFileSync(join(outDir, boot[1]), 'utf8');
  const files = /var FILES = (\{.*?\});\n/.exec(source);
  if (!files) throw new Error('pre-rendering the sign-in screen: the first-screen script has no file list');
  const screen = (JSON.parse(files[1]) as { screens: Record<string, Record<string, string[]>> }).screens['/login'] ?? {};
  return Object.fromEntries(Object.entries(screen).map(([lang, list]) => [lang, list.filter((f) => f.endsWith('.css'))]));
}
