#!/usr/bin/env node
// Renders the sign-in screen in each language (src/app/prerender.tsx) and writes the markup as JSON
// ({ "en": "<div …>", … }) to the file named by its first argument. Run by build/prerender.ts after the
// build, in a process of its own: the page's code needs a DOM (happy-dom's, as the unit tests use), which
// does not belong in the build's own process. src/app/prerender.tsx is bundled for Node first (Vite's SSR
// build, the app's own packages bundled in, react and react-dom left to Node), then loaded and rendered:
// about 4 s where loading it through Vite's SSR module loader took about 12 s, the same markup.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { Window } from 'happy-dom';
import { build } from 'vite';

const [out, ...langs] = process.argv.slice(2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside the package, so the bundle's imports of react and react-dom resolve to the app's own copies.
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const bundle = mkdtempSync(join(root, 'node_modules/.cache/prerender-'));

try {
  await build({
    root,
    configFile: false,
    publicDir: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [
      react(),
      // The style sheets (virtual:antd.css and the rest, made by the app's build) are not part of the markup.
      { name: 'no-style-sheets', enforce: 'pre', resolveId: (id) => (id.startsWith('virtual:') ? `\0${id}` : null), load: (id) => (id.startsWith('\0virtual:') ? 'export default {}' : null) },
    ],
    // As the app's build reads its locales (vite.config.ts).
    json: { namedExports: false, stringify: true },
    // antd and its parts publish ES modules without file extensions, which Node does not load as they are.
    ssr: { noExternal: ['antd', /^@ant-design\//, /^@rc-component\//, /^@emotion\//, 'stylis', 'classnames', 'clsx'] },
    build: { ssr: join(root, 'src/app/prerender.tsx'), outDir: bundle, emptyOutDir: true, minify: false },
  });

  // A browser's globals for code that reads them as it loads or renders (a fresh page: no storage).
  const window = new Window({ url: 'http://localhost/login' });
  for (const key of ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'history', 'HTMLElement', 'Element', 'Node', 'getComputedStyle', 'matchMedia', 'requestAnimationFrame', 'cancelAnimationFrame', 'MutationObserver', 'ResizeObserver', 'CSS']) {
    const value = window[key];
    Object.defineProperty(globalThis, key, { value: typeof value === 'function' && /^[a-z]/.test(key) ? value.bind(window) : value, configurable: true, writable: true });
  }
  const { renderSignIn } = await import(pathToFileURL(join(bundle, 'prerender.js')).href);
  const pages = {};
  for (const lang of langs) pages[lang] = await renderSignIn(lang);
  writeFileSync(out, JSON.stringify(pages));
} finally {
  rmSync(bundle, { recursive: true, force: true });
}
// Timers the screen starts once shown (the typewriter, the toasts) would keep the process alive.
process.exit(0);
