// The offline demo model's answers to task requests (see tasks/task-prompts.ts for their tags): goals
// that name the places and things the demo writes about, and a judge that finds them in the story.
import { demoWords, type DemoLanguage } from './demo-prose';

const GOALS = {
  en: {
    series: ['The lost things', 'A long night', 'Old promises', 'Across the town'],
    find: 'Find {thing}',
    reach: 'Get to {place}',
    feel: 'Share a quiet moment at {place}',
    done: 'The story shows it.',
    open: 'It has not happened yet.',
  },
  zh: {
    series: ['失物', '漫长的夜', '旧日的约定', '穿过小城'],
    find: '找到{thing}',
    reach: '去{place}',
    feel: '在{place}与人共度片刻安宁',
    done: '正文写到了这件事。',
    open: '还没有发生。',
  },
} as const;

/** Three task groups as JSON, made of the demo's own places and things. */
export function demoTaskGroups(language: DemoLanguage, random: () => number): string {
  const g = GOALS[language];
  const { places, things } = demoWords(language);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const groups = [0, 1, 2].map((i) => {
    const targets = [
      { title: g.find.replace('{thing}', pick(things)), type: 'reality', score: 1 + Math.floor(random() * 2), probability: 60 },
      { title: g.reach.replace('{place}', pick(places)), type: 'reality', score: 2, probability: 50 },
      { title: g.feel.replace('{place}', pick(places)), type: 'emotion', score: 3, probability: 30 },
    ].slice(0, 1 + ((i + Math.floor(random() * 3)) % 3));
    return { series_name: g.series[(i + Math.floor(random() * 4)) % 4], main_character: '', targets };
  });
  return JSON.stringify({ groups });
}

/**
 * A judgement as JSON: a target is done when a sentence of the story names the place or thing in
 * its title; that sentence is quoted.
 */
export function demoJudgement(language: DemoLanguage, story: string, targets: string[]): string {
  const g = GOALS[language];
  const { places, things } = demoWords(language);
  const sentences = story.split(language === 'zh' ? /(?<=[。！？\n])/ : /(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
  const verdicts = targets.map((title, i) => {
    const word = [...things, ...places].find((w) => title.includes(w));
    const quote = word ? sentences.find((s) => s.includes(word)) : undefined;
    return quote
      ? { index: i + 1, completed: true, evidence: quote, reason: g.done, probability: 100 }
      : { index: i + 1, completed: false, evidence: '', reason: g.open, probability: 45 };
  });
  return JSON.stringify({ targets: verdicts });
}
