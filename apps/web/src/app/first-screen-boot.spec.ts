import { afterEach, describe, expect, it, vi } from 'vitest';
import source from '../../build/first-screen-boot.js?raw';
import { detectLanguage } from '../lib/i18n';

// index.html's first script (build/first-screen-boot.js, its file map filled in by the build): the links it
// adds for a page, given the stored language and token, the browser's languages and the path.
const FILES = {
  screens: {
    '/login': { all: ['/assets/login.js', '/assets/login.css'], 'zh-CN': ['/assets/phone-login-form.js'] },
    '/stories': { all: ['/assets/stories.js'] },
    '/play': { all: ['/assets/play.js'] },
  },
  languages: { en: ['/assets/en.js'], 'zh-CN': ['/assets/zh-CN.js', '/assets/zh_CN.js'] },
  signedIn: ['/stories', '/play', '/create'],
  signIn: '/login',
  home: '/stories',
};

function boot(path: string, languages: string[]): { rel: string; as: string; href: string; crossOrigin: string | null }[] {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
  document.head.innerHTML = '';
  const run = new Function('location', source.replace('var FILES = __FIRST_SCREEN__;', `var FILES = ${JSON.stringify(FILES)};`));
  run({ pathname: path });
  return Array.from(document.head.querySelectorAll('link')).map((l) => ({ rel: l.rel, as: l.as, href: new URL(l.href).pathname, crossOrigin: l.crossOrigin }));
}

describe("index.html's first script announces the first screen's files", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.head.innerHTML = '';
  });

  it("signed out on /login in English: the strings, the screen's chunk and its sheet", () => {
    expect(boot('/login', ['en-GB'])).toEqual([
      { rel: 'modulepreload', as: '', href: '/assets/en.js', crossOrigin: '' },
      { rel: 'modulepreload', as: '', href: '/assets/login.js', crossOrigin: '' },
      { rel: 'preload', as: 'style', href: '/assets/login.css', crossOrigin: '' },
    ]);
  });

  it('in Chinese: the Chinese strings and antd texts, and the phone form the sign-in card opens on', () => {
    expect(boot('/login', ['zh-TW', 'en']).map((l) => l.href)).toEqual(['/assets/zh-CN.js', '/assets/zh_CN.js', '/assets/login.js', '/assets/login.css', '/assets/phone-login-form.js']);
  });

  it('a signed-in screen signed out is the sign-in form; signed in, its own chunk; / is the stories list', () => {
    expect(boot('/play', ['en']).map((l) => l.href)).toEqual(['/assets/en.js', '/assets/login.js', '/assets/login.css']);
    localStorage.setItem('token', 't');
    expect(boot('/play', ['en']).map((l) => l.href)).toEqual(['/assets/en.js', '/assets/play.js']);
    expect(boot('/', ['en']).map((l) => l.href)).toEqual(['/assets/en.js', '/assets/stories.js']);
    // A path without a first screen of its own: the strings only.
    expect(boot('/create', ['en']).map((l) => l.href)).toEqual(['/assets/en.js']);
  });

  it("a signed-in screen's own files come at low priority, after the entry's; the strings and the sign-in screen's do not", () => {
    const priorities = () => Array.from(document.head.querySelectorAll('link')).map((l) => `${new URL(l.href).pathname} ${(l as HTMLLinkElement & { fetchPriority?: string }).fetchPriority || 'auto'}`);
    boot('/login', ['zh-CN']);
    expect(priorities().filter((l) => !l.endsWith(' auto'))).toEqual([]);
    localStorage.setItem('token', 't');
    boot('/play', ['en']);
    expect(priorities()).toEqual(['/assets/en.js auto', '/assets/play.js low']);
    boot('/', ['zh-CN']);
    expect(priorities()).toEqual(['/assets/zh-CN.js auto', '/assets/zh_CN.js auto', '/assets/stories.js low']);
  });

  it('picks the language as the app does: the stored choice, else the browser', () => {
    for (const [stored, languages] of [
      [null, ['zh-CN']],
      [null, ['zh']],
      [null, ['fr', 'zh-CN']],
      [null, []],
      ['en', ['zh-CN']],
      ['zh-CN', ['en-US']],
      ['de', ['zh-Hans-CN']],
    ] as const) {
      if (stored) localStorage.setItem('lang', stored);
      else localStorage.removeItem('lang');
      const strings = boot('/login', [...languages])[0]?.href;
      expect(strings, `${stored} ${languages.join(',')}`).toBe(`/assets/${detectLanguage()}.js`);
    }
  });
});

describe("index.html's first script and the sign-in screen rendered at build time", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.body.innerHTML = '';
    localStorage.clear();
    delete (window as unknown as { __TL_CARRY_OVER__?: unknown }).__TL_CARRY_OVER__;
  });

  const page = (lang: string) => {
    document.body.innerHTML = `<div id="root" data-prerendered="${lang}"><form><input id="userName" data-testid="login-username-input"><button role="tab" data-testid="login-tab-phone" type="button">Phone</button><button type="submit">Go</button></form></div>`;
    return document.getElementById('root')!;
  };
  const kept = () => (window as unknown as { __TL_CARRY_OVER__?: unknown }).__TL_CARRY_OVER__;

  it('keeps it when the app will show the same language, and empties the page when it will show another', () => {
    let root = page('zh-CN');
    boot('/login', ['zh-CN']);
    expect(root.querySelector('#userName')).not.toBeNull();
    root = page('en');
    boot('/login', ['zh-CN']);
    expect(root.innerHTML).toBe('');
    // The stored choice decides, as in the app: the server guessed from the browser before the cookie came.
    localStorage.setItem('lang', 'en');
    root = page('zh-CN');
    boot('/login', ['zh-CN']);
    expect(root.innerHTML).toBe('');
  });

  it('keeps what is typed, focused, pressed and submitted on it, for the app, until the app has rendered', () => {
    const root = page('en');
    boot('/login', ['en']);
    const field = root.querySelector('input')!;
    field.focus();
    field.value = 'mara';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    (root.querySelector('[role="tab"]') as HTMLButtonElement).click();
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    root.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    expect(kept()).toEqual({ values: { 'login-username-input': 'mara' }, focus: 'login-username-input', tab: 'login-tab-phone', submit: true });
    // The app has rendered (the attribute goes): nothing more is kept, nothing held.
    root.removeAttribute('data-prerendered');
    field.value = 'later';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    const later = new Event('submit', { bubbles: true, cancelable: true });
    root.querySelector('form')!.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    expect((kept() as { values: Record<string, string> }).values).toEqual({ 'login-username-input': 'mara' });
  });

  it('leaves any other page alone', () => {
    document.body.innerHTML = '<div id="root"><p>kept</p></div>';
    boot('/login', ['zh-CN']);
    expect(document.getElementById('root')!.innerHTML).toBe('<p>kept</p>');
  });
});
