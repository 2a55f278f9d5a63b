/** The language a story is written in, as prompts and exports tell it: English or Chinese. */
export type StoryLanguage = 'en' | 'zh';

/**
 * zh when at least a fifth of the letters near the end of the story (its last 3000 UTF-16 code units)
 * are CJK (U+3400-U+9FFF); letters are those and A-Z, a-z. Counted in one pass without building a
 * string per letter: it runs two or three times on every send (a regular expression's match list
 * cost ~0.1 ms and its garbage each time).
 */
export function storyLanguage(text: string): StoryLanguage {
  let cjk = 0;
  let letters = 0;
  for (let i = Math.max(0, text.length - 3000); i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x3400 && c <= 0x9fff) cjk++;
    else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) letters++;
  }
  letters += cjk;
  return letters > 0 && cjk / letters >= 0.2 ? 'zh' : 'en';
}
