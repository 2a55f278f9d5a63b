import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SUPPORTED_LANGUAGES, type Language } from '@taleloom/contracts';
import en from '../locales/en.json';
import zhCN from '../locales/zh-CN.json';
import { getStoredLanguage, storeLanguage } from './storage';

export const resources = {
  en: { translation: en },
  'zh-CN': { translation: zhCN },
} as const;

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

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});
applyToDocument(i18n.language);

export function getCurrentLanguage(): Language {
  return normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
}

/** Switches the interface language and remembers it in localStorage `lang`. */
export async function changeLanguage(lang: Language): Promise<void> {
  storeLanguage(lang);
  await i18n.changeLanguage(lang);
}

export { i18n };
