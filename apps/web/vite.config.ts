/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { antdStaticStyles } from './build/antd-styles';
import { antdZeroRuntime } from './build/antd-zero-runtime';
import { firstScreenPreload } from './build/first-screen-preload';
import { precompress } from './build/precompress';
import { prerenderSignIn } from './build/prerender';
import { screenChunks } from './build/screen-chunks';
import { HOME, SIGN_IN, SIGNED_IN } from './src/app/screen-paths';

const src = fileURLToPath(new URL('./src', import.meta.url));

// Vendor groups keep any single chunk small; routes split themselves through React.lazy.
const vendorGroups = [
  { name: 'vendor-react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'vendor-router', test: /[\\/]node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/ },
  { name: 'vendor-data', test: /[\\/]node_modules[\\/](@tanstack|i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/ },
  // The app's small shared helpers (API client, errors, storage, i18n): one chunk every screen has,
  // rather than a handful of tiny ones each with a request of its own.
  { name: 'app-lib', test: /[\\/]apps[\\/]web[\\/]src[\\/]lib[\\/]/ },
];

// V8's explicit compile hint, first in the signed-in first screens' chunks (the entry's and those of
// /stories and /play): Chromium 136 and later compile all of such a file's functions as it downloads, on
// a background thread, instead of each on the main thread at its first call. Nearly all of these run
// before the screen shows. On the phone profile, same-run medians of 7 (two runs agree): /stories usable
// 0.17 to 0.25 s sooner, /play 0.16 to 0.24 s, the main thread's script time until usable down in every
// traced load. Other browsers ignore the comment.
const EAGER_CHUNKS = new Set(['rolldown-runtime', 'vendor-react', 'vendor-router', 'vendor-data', 'app-lib', 'entry-lib', 'login-shared', 'screens-shared', 'stories', 'stories-shared', 'play', 'play-shared']);

// The code the screens share with each other and with their dialogs: a few chunks, not dozens.
const shared = screenChunks({
  screens: {
    login: `${src}/app/routes/login.tsx`,
    phone: `${src}/features/auth/components/phone-login-form.tsx`,
    stories: `${src}/app/routes/stories.tsx`,
    play: `${src}/app/routes/play.tsx`,
  },
  together: ['stories', 'play'],
});

export default defineConfig({
  plugins: [
    react(),
    antdZeroRuntime(),
    shared.plugin,
    antdStaticStyles({ srcDir: src, theme: () => import('./src/app/theme').then((m) => m.appTheme) }),
    firstScreenPreload({
      screens: {
        '/login': { all: [`${src}/app/routes/login.tsx`], 'zh-CN': [`${src}/features/auth/components/phone-login-form.tsx`] },
        '/stories': { all: [`${src}/app/routes/stories.tsx`, /antd-rest[^/]*\.css$/] },
        '/play': { all: [`${src}/app/routes/play.tsx`, /antd-rest[^/]*\.css$/] },
      },
      languages: { en: [`${src}/locales/en.json`], 'zh-CN': [`${src}/locales/zh-CN.json`, /[\\/]antd[\\/](es[\\/])?locale[\\/]zh_CN\.js$/] },
      signedIn: SIGNED_IN,
      signIn: SIGN_IN,
      home: HOME,
    }),
    prerenderSignIn(['en', 'zh-CN']),
    precompress(),
  ],
  // A locale's strings as JSON.parse("…"): parsed several times faster than the same object as code
  // (V8's guidance for data over 10 kB), on the first screen of every page.
  json: { namedExports: false, stringify: true },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        postBanner: (chunk) => (EAGER_CHUNKS.has(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
        codeSplitting: { groups: [...vendorGroups, { name: shared.name, debugName: 'screens', includeDependenciesRecursively: false }] },
      },
    },
  },
  test: {
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.spec.{ts,tsx}'],
    css: false,
    testTimeout: 15000,
    // happy-dom, not jsdom: on 2 cores the suite took 42 to 49 s against 118 s with jsdom (a fresh
    // window per file costs a third as much, and the DOM work of each test about a third).
    // Two files at a time that share modules, where vitest's default on a 2-core machine (CI's) is one
    // file at a time. Each file still gets a fresh window, and every test starts in English with an
    // empty localStorage (src/test/setup.ts). Checked in shuffled orders (--sequence.shuffle).
    maxWorkers: 2,
    isolate: false,
  },
});
