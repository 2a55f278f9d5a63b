import { SUPPORTED_LANGUAGES, type Language } from '@taleloom/contracts';
import type { Request } from 'express';

/** The language of a request: body `language`, then query `language`, then Accept-Language; default en. */
export function requestLanguage(req: Request): Language {
  const candidates = [
    (req.body as { language?: unknown } | undefined)?.language,
    req.query?.language,
  ];
  for (const c of candidates) {
    if (typeof c === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(c)) return c as Language;
  }
  const accept = req.headers['accept-language'];
  return typeof accept === 'string' && /^zh\b/i.test(accept.trim()) ? 'zh-CN' : 'en';
}
