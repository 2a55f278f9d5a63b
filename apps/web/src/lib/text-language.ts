// The language of a piece of user-written text (a story's name or lines), for its `lang` attribute:
// the browser then picks fitting fonts and punctuation forms for it whatever the interface language is.
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;
const LATIN = /[A-Za-z]/g;

export function textLanguage(text: string): 'zh-CN' | 'en' {
  const cjk = text.match(CJK)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  return cjk > 0 && cjk * 2 >= latin / 2 ? 'zh-CN' : 'en';
}
