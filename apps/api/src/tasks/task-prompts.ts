import type { TaskGroup, TaskTarget } from '@taleloom/contracts';
import type { ChatMessage } from '../models/chat-provider';
import type { StoryLanguage as PromptLanguage } from '../common/story-language';
import { sharedTokenCounter, type TokenCounter } from '../generation/token-counter';

/**
 * Tags that mark the two task requests. The offline demo model and the test stub look for them to
 * answer with task groups or judgements (as they look for <new-text> in a fold request).
 */
export const TASK_REQUEST_TAGS = { groups: 'task-groups-request', score: 'targets-to-score', story: 'story-text' } as const;

/** What the task prompts read of a story. */
export interface TaskStoryContext {
  prologue_and_characters: string;
  goal: string;
  previous_summary: string;
  main_text: string;
}

const SUGGEST: Record<PromptLanguage, string> = {
  en:
    'You design goals for an interactive story that a player is playing. Read the story and propose {count} different ' +
    'task groups the player could pursue next. Each group has: "series_name" (a short title), "main_character" (the ' +
    'character the goals belong to, usually the player\'s), and "targets": 1 to 4 goals, each with "title" (one ' +
    'concrete sentence saying what has to happen), "type" ("reality": something that happens in the story world, or ' +
    '"emotion": a change of feeling or relationship), "score" (1 easy, 2 medium, 3 hard) and "probability" (0-100, ' +
    'how likely the player is to achieve it). Goals must fit the story and must not repeat the existing groups. ' +
    'Write the titles in English. Answer with JSON only, exactly in this shape: ' +
    '{"groups":[{"series_name":"...","main_character":"...","targets":[{"title":"...","type":"reality","score":2,"probability":60}]}]}',
  zh:
    '你为玩家正在游玩的互动故事设计目标。阅读故事，提出 {count} 个不同的任务组，供玩家接下来追求。每个任务组包含：' +
    '"series_name"（简短的标题）、"main_character"（目标所属的角色，通常是玩家的角色），以及 "targets"：1 到 4 个目标，' +
    '每个目标有 "title"（一句具体的话，说明需要发生什么）、"type"（"reality"：故事世界里发生的事；"emotion"：情感或关系的变化）、' +
    '"score"（1 简单，2 中等，3 困难）和 "probability"（0-100，玩家达成的可能性）。目标要贴合故事，不要与已有任务组重复。' +
    '标题用中文书写。只用 JSON 回答，格式严格如下：' +
    '{"groups":[{"series_name":"...","main_character":"...","targets":[{"title":"...","type":"reality","score":2,"probability":60}]}]}',
};

const JUDGE: Record<PromptLanguage, string> = {
  en:
    'You judge the goals of an interactive story. For each numbered target decide whether the story text shows it ' +
    'achieved. A target is completed only when a passage of the story shows it happened; then quote that passage ' +
    'exactly as it is written in the story (verbatim, at most 300 characters) as "evidence". Never count what is only ' +
    'planned, wished or promised. For every target also give "probability" (0-100: how likely the player is to ' +
    'achieve it from here) and a one-sentence "reason" in English. Answer with JSON only, exactly in this shape: ' +
    '{"targets":[{"index":1,"completed":true,"evidence":"...","reason":"...","probability":100}]}',
  zh:
    '你负责评判互动故事的目标。对每个编号的目标，判断故事正文是否表明它已经达成。只有当故事中有一段文字表明它确实发生了，' +
    '目标才算完成；此时把那段文字按原文一字不差地引用为 "evidence"（不超过 300 字）。仅仅计划、希望或承诺的事不算完成。' +
    '每个目标还要给出 "probability"（0-100：从现在起玩家达成它的可能性）和一句中文的 "reason"。只用 JSON 回答，格式严格如下：' +
    '{"targets":[{"index":1,"completed":true,"evidence":"...","reason":"...","probability":100}]}',
};

const HEADINGS: Record<PromptLanguage, Record<'setup' | 'goal' | 'summary' | 'story' | 'existing', string>> = {
  en: { setup: 'Prologue and characters', goal: 'The story\'s goal', summary: 'Summary of earlier events', story: 'The story so far (most recent part)', existing: 'Existing task groups' },
  zh: { setup: '开篇与角色设定', goal: '故事目标', summary: '前情提要', story: '故事正文（最近部分）', existing: '已有任务组' },
};

function section(title: string, content: string): string {
  const text = content.trim();
  return text ? `## ${title}\n${text}` : '';
}

const targetLine = (t: Pick<TaskTarget, 'title' | 'type'>, n: number) => `${n}. [${t.type}] ${t.title}`;

// The story as the task prompts show it: setup, goal and summary, then as much of the newest text as fits.
function storyBlock(story: TaskStoryContext, language: PromptLanguage, budget: number, counter: TokenCounter): string {
  const H = HEADINGS[language];
  const head = [
    section(H.setup, story.prologue_and_characters.slice(0, 20_000)),
    section(H.goal, story.goal),
    section(H.summary, story.previous_summary),
  ].filter(Boolean).join('\n\n');
  const room = Math.max(0, budget - counter.count(head) - 32);
  const fit = counter.tailThatFits(story.main_text, room);
  const tag = TASK_REQUEST_TAGS.story;
  return [head, `## ${H.story}\n<${tag}>\n${story.main_text.slice(fit.start)}\n</${tag}>`].filter(Boolean).join('\n\n');
}

/** The request for `count` new task groups; `budget` is the tokens the prompt may take. */
export function suggestionMessages(
  story: TaskStoryContext,
  existing: TaskGroup[],
  count: number,
  language: PromptLanguage,
  budget: number,
  counter: TokenCounter = sharedTokenCounter,
): ChatMessage[] {
  const H = HEADINGS[language];
  const known = existing.map((g) => `- ${g.series_name}: ${g.targets.map((t) => t.title).join('; ')}`).join('\n');
  const tag = TASK_REQUEST_TAGS.groups;
  return [
    { role: 'system', content: SUGGEST[language].replace('{count}', String(count)) },
    {
      role: 'user',
      content: `<${tag} count="${count}">\n${[storyBlock(story, language, budget - 600, counter), section(H.existing, known)].filter(Boolean).join('\n\n')}\n</${tag}>`,
    },
  ];
}

/** The request to judge the open targets of a group; they are numbered 1.. in the order given. */
export function judgementMessages(
  story: TaskStoryContext,
  targets: Pick<TaskTarget, 'title' | 'type'>[],
  language: PromptLanguage,
  budget: number,
  counter: TokenCounter = sharedTokenCounter,
): ChatMessage[] {
  const tag = TASK_REQUEST_TAGS.score;
  const list = targets.map((t, i) => targetLine(t, i + 1)).join('\n');
  return [
    { role: 'system', content: JUDGE[language] },
    { role: 'user', content: `${storyBlock(story, language, budget - counter.count(list) - 200, counter)}\n\n<${tag}>\n${list}\n</${tag}>` },
  ];
}
