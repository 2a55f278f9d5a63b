import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Ant Design's styles for the app's theme, made at build time, in two sheets: `virtual:antd.css`, the
 * components a cold /login shows (the sign-in form, its fields and buttons, a message), blocking the first
 * paint as any style sheet does; `virtual:antd-rest.css`, every other component the app uses, loaded
 * once the sign-in form is shown (routes/login.tsx) or with any other screen's code (router.tsx),
 * through lib/antd-styles.ts, which puts it before the app's own sheets.
 */
const SHEETS = { 'virtual:antd.css': '\0antd-first.css', 'virtual:antd-rest.css': '\0antd-rest.css' } as const;
type Sheet = keyof typeof SHEETS;
const FIRST_SCREEN = ['App', 'Button', 'Form', 'Input', 'Select', 'Space', 'Spin', 'message'];

// Components the app renders without importing them by name: antd's App gives message, notification and
// Modal.confirm; Select and Table show Empty; Typography's ellipsis shows Tooltip.
const ALWAYS = ['message', 'notification', 'Modal', 'Empty', 'Tooltip'];

/** Every name the app's sources import from 'antd' (not its tests). */
export function antdComponentsUsed(srcDir: string): string[] {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name) ? [path] : [];
    });
  const names = new Set(ALWAYS);
  for (const file of files(srcDir)) {
    for (const [, list] of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
      for (const part of list.split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0].trim();
        if (name && !name.startsWith('type ') && /^[A-Za-z]+$/.test(name)) names.add(name);
      }
    }
  }
  return [...names].sort();
}

/**
 * Ant Design without styles computed in the browser: at build (and dev) start, the styles of every
 * component the app uses are rendered once in Node with the app's theme (@ant-design/static-style-extract)
 * and served as a plain style sheet, `virtual:antd.css`; the app runs antd with `zeroRuntime`, so no
 * component computes or injects its CSS as it first renders. The theme's CSS variables are still set by
 * antd at run time (a few rules), so the reduced-motion theme and the tokens apply as before.
 */
export function antdStaticStyles(opts: { srcDir: string; theme: () => Promise<object> }): Plugin {
  let sheets: Promise<Record<Sheet, string>> | undefined;
  const make = async (): Promise<Record<Sheet, string>> => {
    // antd's CommonJS build, rendered by react-dom/server: loaded only here, never in the app's bundle.
    const require = createRequire(import.meta.url);
    const { extractStyle } = await import('@ant-design/static-style-extract');
    const React = require('react') as typeof import('react');
    const { ConfigProvider } = require('antd') as typeof import('antd');
    const theme = await opts.theme();
    const extract = (includes: string[]) => extractStyle({ includes, customTheme: (node) => React.createElement(ConfigProvider, { theme }, node) });
    const used = antdComponentsUsed(opts.srcDir);
    const first = extract(FIRST_SCREEN);
    // A component's rendering brings the styles of those it shows (Input.Search a Button): what the
    // first sheet has already is left out of the second.
    const seen = new Set(topLevelRules(first));
    const rest = topLevelRules(extract(used.filter((name) => !FIRST_SCREEN.includes(name))))
      .filter((rule) => !seen.has(rule))
      .join('');
    return { 'virtual:antd.css': first, 'virtual:antd-rest.css': rest };
  };
  const resolved = Object.fromEntries(Object.entries(SHEETS).map(([id, r]) => [r, id as Sheet]));
  return {
    name: 'taleloom-antd-static-styles',
    resolveId(id) {
      return id in SHEETS ? SHEETS[id as Sheet] : undefined;
    },
    async load(id) {
      const sheet = resolved[id];
      if (!sheet) return undefined;
      // Unit tests load no styles (vitest's css: false): the few seconds of rendering are not spent there.
      if (process.env.VITEST) return '';
      sheets ??= make();
      return (await sheets)[sheet];
    },
  };
}

/** A style sheet's top-level rules and at-rules, each as written (braces counted outside strings). */
export function topLevelRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  let quote = '';
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1));
      start = i + 1;
    }
  }
  return rules;
}
