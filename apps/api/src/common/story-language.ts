/** The language a story is written in, as prompts and exports tell it: English or Chinese. */
export type StoryLanguage = 'en' | 'zh';

/** zh when at least a fifth of the letters near the end of the story are CJK. */
export function storyLanguage(text: string): StoryLanguage {
  const sample = text.slice(-3000);
  const cjk = (sample.match(/[\u3400-\u9fff]/g) ?? []).length;
  const letters = (sample.match(/[A-Za-z\u3400-\u9fff]/g) ?? []).length;
  return letters > 0 && cjk / letters >= 0.2 ? 'zh' : 'en';
}

