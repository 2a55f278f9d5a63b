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

  it('write Chinese with full-width punctuation: no ASCII , : ; ! ? ( ) beside a Chinese character', () => {
    // A web address is not prose ("http(s)").
    const prose = (text: string) => text.replace(/\{\{[^}]*\}\}/g, 'X').replace(/https?\S*|http\(s\)/g, 'URL');
    const halfWidth = keyPaths(locales['zh-CN']).filter((path) =>
      /[\u3400-\u9fff]\s*[,:;!?()]|[,:;!?()]\s*[\u3400-\u9fff]/.test(prose(String(valueAt(locales['zh-CN'], path)))),
    );
    expect(halfWidth).toEqual([]);
  });

  it('call the play mode and each mode by one name everywhere (the play screen, the create form, the tasks, the context inspector)', () => {
    for (const tree of Object.values(locales)) {
      const name = valueAt(tree, 'play.playMode');
      expect([valueAt(tree, 'create.playMode'), valueAt(tree, 'tasks.playMode'), valueAt(tree, 'lore.context.kinds.play_mode')]).toEqual([name, name, name]);
      for (const mode of ['fly_free', 'tasks_guider', 'tasks_master']) {
        const modeName = String(valueAt(tree, `play.playModes.${mode}`));
        expect(valueAt(tree, `create.playModes.${mode}`)).toBe(modeName);
        expect(String(valueAt(tree, `tasks.modeHints.${mode}`)).startsWith(modeName)).toBe(true);
      }
    }
  });

  it('names the brand per language', () => {
    expect(en.app.brand).toBe('TaleLoom');
    expect(zhCN.app.brand).toBe('织梦故事');
  });
});
