import { ALL_ERROR_CODES } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR_CODES } from '../lib/api-client';
import en from './en.json';
import zhCN from './zh-CN.json';

type Tree = { [key: string]: string | Tree };

function keyPaths(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`),
  );
}

function valueAt(tree: Tree, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Tree | undefined)?.[key], tree);
}

const locales = { en: en as Tree, 'zh-CN': zhCN as Tree };

describe('locale files', () => {
  it('en.json and zh-CN.json have exactly the same keys, recursively', () => {
    expect(keyPaths(locales['zh-CN']).sort()).toEqual(keyPaths(locales.en).sort());
  });

  it('have no empty strings', () => {
    for (const [lang, tree] of Object.entries(locales)) {
      const empty = keyPaths(tree).filter((path) => !String(valueAt(tree, path)).trim());
      expect(empty, lang).toEqual([]);
    }
  });

  it('use the same interpolation variables in both languages', () => {
    const vars = (text: unknown) => [...String(text).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    for (const path of keyPaths(locales.en)) {
      expect(vars(valueAt(locales['zh-CN'], path)), path).toEqual(vars(valueAt(locales.en, path)));
    }
  });

  it.each(Object.keys(locales))('%s translates every error code of the contracts and of the client', (lang) => {
    const tree = locales[lang as keyof typeof locales];
    const codes = [...ALL_ERROR_CODES, ...Object.values(CLIENT_ERROR_CODES)];
    expect(codes.length).toBeGreaterThan(10);
    const missing = codes.filter((code) => typeof valueAt(tree, `errors.${code}`) !== 'string');
    expect(missing).toEqual([]);
  });

  it('names the brand per language', () => {
    expect(en.app.brand).toBe('TaleLoom');
    expect(zhCN.app.brand).toBe('织梦故事');
  });
});
