/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress';

// Vendor groups keep any single chunk small; routes split themselves through React.lazy.
const vendorGroups = [
  { name: 'vendor-react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'vendor-router', test: /[\\/]node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/ },
  { name: 'vendor-data', test: /[\\/]node_modules[\\/](@tanstack|i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/ },
  // The app's small shared helpers (API client, errors, storage, i18n): one chunk every screen has,
  // rather than a handful of tiny ones each with a request of its own.
  { name: 'app-lib', test: /[\\/]apps[\\/]web[\\/]src[\\/]lib[\\/]/ },
];

export default defineConfig({
  plugins: [react(), precompress()],
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
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.spec.{ts,tsx}'],
    css: false,
    testTimeout: 15000,
    // Vitest's default here is one file at a time on a 2-core machine (CI's): 165 s for the suite,
    // 129 s with two, 78 s with two that share modules (each file still gets a fresh jsdom, and every
    // test starts in English with an empty localStorage: src/test/setup.ts). Checked in 10 shuffled
    // orders (--sequence.shuffle), 7 alone and 3 beside a second run: all 138 passed, except once under
    // that double load the login test looked after its 3-second welcome had gone (it now watches the
    // page for it from the press on).
    maxWorkers: 2,
    isolate: false,
  },
});
