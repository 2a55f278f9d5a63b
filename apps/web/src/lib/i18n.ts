import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SUPPORTED_LANGUAGES, type Language } from '@taleloom/contracts';
import { getStoredLanguage, shareLanguage, storeLanguage } from './storage';

// Each language is a chunk of its own: a page loads the one it shows (the other comes on a switch).
const LOCALES: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('../locales/en.json'),
  'zh-CN': () => import('../locales/zh-CN.json'),
};

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = isLanguage(language) ? LOCALES[language] : null;
    if (!load) return callback(null, {});
    load().then(
      (m) => callback(null, m.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** Any Chinese tag (zh, zh-TW, zh-Hans-CN...) maps to zh-CN, everything else to en. */
export function normalizeLanguage(tag: string | null | undefined): Language {
  return tag && tag.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** The stored choice wins; otherwise the browser's first language decides. */
export function detectLanguage(): Language {
  const stored = getStoredLanguage();
  if (isLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? undefined : (navigator.languages?.[0] ?? navigator.language);
  return normalizeLanguage(browser);
}

function applyToDocument(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

i18n.on('languageChanged', applyToDocument);

/** Resolves once the interface language's strings are loaded: main.tsx renders after it. */
export const i18nReady = i18n
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    lng: detectLanguage(),
    // Both languages have every key (locales.test.ts): no fallback language to load beside the shown one.
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
applyToDocument(i18n.language);
// A language chosen before the cookie existed: the server learns it for the next sign-in page.
{
  const stored = getStoredLanguage();
  if (isLanguage(stored)) shareLanguage(stored);
}

export function getCurrentLanguage(): Language {
  return normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
}

/** Switches the interface language and remembers it in localStorage `lang`. */
export async function changeLanguage(lang: Language): Promise<void> {
  storeLanguage(lang);
  await i18n.changeLanguage(lang);
}

export { i18n };
