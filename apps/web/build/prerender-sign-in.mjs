#!/usr/bin/env node
// Renders the sign-in screen in each language (src/app/prerender.tsx) and writes the markup as JSON
// ({ "en": "<div …>", … }) to the file named by its first argument. Run by build/prerender.ts after the
// build, in a process of its own: the page's code needs a DOM (happy-dom's, as the unit tests use) and
// Vite's SSR loader, neither of which belongs in the build's own process.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';
import { createServer } from 'vite';

const [out, ...langs] = process.argv.slice(2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// A browser's globals for code that reads them as it loads or renders (a fresh page: no storage).
const window = new Window({ url: 'http://localhost/login' });
for (const key of ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'history', 'HTMLElement', 'Element', 'Node', 'getComputedStyle', 'matchMedia', 'requestAnimationFrame', 'cancelAnimationFrame', 'MutationObserver', 'ResizeObserver', 'CSS']) {
  const value = window[key];
  Object.defineProperty(globalThis, key, { value: typeof value === 'function' && /^[a-z]/.test(key) ? value.bind(window) : value, configurable: true, writable: true });
}

const server = await createServer({
  root,
  configFile: join(root, 'vite.config.ts'),
  mode: 'production',
  logLevel: 'warn',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  // antd and its parts publish ES modules without file extensions, which Node does not load as they are:
  // Vite transforms them instead; the two CommonJS entries antd's code is reached through go to their ES builds.
  resolve: {
    alias: [
      { find: /^@ant-design\/icons$/, replacement: '@ant-design/icons/es/index.js' },
      { find: /^antd\/locale\/(.*)$/, replacement: 'antd/es/locale/$1.js' },
    ],
  },
  ssr: { noExternal: ['antd', /^@ant-design\//, /^@rc-component\//, /^@emotion\//, 'stylis', 'classnames', 'clsx'] },
});
try {
  const { renderSignIn } = await server.ssrLoadModule('/src/app/prerender.tsx');
  const pages = {};
  for (const lang of langs) pages[lang] = await renderSignIn(lang);
  writeFileSync(out, JSON.stringify(pages));
} finally {
  await server.close();
}
// Chunks the screen starts loading once shown (the toasts, the second style sheet) may still be on their
// way through the closed server: nothing more is needed of them.
process.exit(0);
