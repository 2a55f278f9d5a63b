import type { StoryLanguage } from '../../common/story-language';
import type { PlayMode } from './prompt-types';

export type PromptLanguage = StoryLanguage;

// The built-in prompts, used when a story's prompt switches are 'default'. They speak the story's language.
export const DEFAULT_SYSTEM_PROMPT: Record<PromptLanguage, string> = {
  en:
    'You are the co-author of an interactive story. Continue the story from where it stops, in the same ' +
    'language, voice and tense. Write vivid, concrete prose of one to three paragraphs. Keep every character ' +
    'consistent with the setup and with what already happened. Never decide what the player\'s character says ' +
    'or thinks; let the other characters and the world react. Do not repeat the text, do not summarise it, and ' +
    'do not add notes or headings.',
  zh:
    '你是一个互动故事的共同作者。请从故事停下的地方接着写，保持相同的语言、文风和人称。用一到三段生动、具体的文字续写。' +
    '人物言行要与设定和已发生的情节一致。不要替玩家扮演的角色说话或决定其想法，而是让其他角色和世界做出回应。' +
    '不要重复原文，不要总结，不要添加注释或标题。',
};

export const DEFAULT_USER_PROMPT: Record<PromptLanguage, string> = {
  en: 'Continue the story.',
  zh: '请继续这个故事。',
};

export const PLAY_MODE_INSTRUCTIONS: Record<PlayMode, Record<PromptLanguage, string>> = {
  fly_free: {
    en: 'Play mode: free. Follow the player\'s lead; there are no set goals.',
    zh: '游戏模式：自由。跟随玩家的引导，没有既定目标。',
  },
  tasks_guider: {
    en:
      'Play mode: guide. Nudge the player toward the open goals below: let the story offer openings, hints and ' +
      'chances that lead to them, without forcing them and without achieving them on the player\'s behalf.',
    zh: '游戏模式：引导。把玩家引向下列未完成的目标：让情节自然地提供机会、线索和契机，但不要强求，也不要替玩家完成目标。',
  },
  tasks_master: {
    en:
      'Play mode: game master. Drive the plot toward the open goals below: make events, characters and obstacles ' +
      'move the story toward them, so every part brings them closer or raises the stakes.',
    zh: '游戏模式：主持。推动情节朝下列未完成的目标发展：让事件、人物和阻碍都把故事引向它们，每一段都让目标更近一步或加大赌注。',
  },
};

/** How a target's type reads in the play prompt. */
export const TARGET_TYPE_LABELS: Record<PromptLanguage, Record<'reality' | 'emotion', string>> = {
  en: { reality: 'event', emotion: 'feeling' },
  zh: { reality: '事件', emotion: '情感' },
};

/**
 * What `{{user}}` (SillyTavern's macro for the player) becomes in the prompt when the player writes as the
 * narrator: the player is addressed, as a card's "{{user}}" usually is.
 */
export const NARRATOR_USER: Record<PromptLanguage, string> = { en: 'you', zh: '你' };

export const LABELS: Record<PromptLanguage, Record<'setup' | 'hidden' | 'goal' | 'targets' | 'summary' | 'lore' | 'story' | 'note' | 'player' | 'narrator', string>> = {
  en: {
    targets: 'Open goals',
    setup: 'Prologue and characters',
    hidden: 'Hidden settings (never reveal them directly)',
    goal: 'Goal',
    summary: 'Summary of earlier events',
    lore: 'World info (what matters now)',
    story: 'The story so far (most recent part)',
    note: "Author's note (follow it for the next part)",
    player: 'The player writes as {role}',
    narrator: 'The player writes as the narrator',
  },
  zh: {
    targets: '未完成的目标',
    setup: '开篇与角色设定',
    hidden: '隐藏设定（不要直接透露）',
    goal: '目标',
    summary: '前情提要',
    lore: '世界设定（与当前情节相关）',
    story: '故事正文（最近部分）',
    note: '作者备注（续写时请遵循）',
    player: '玩家以「{role}」的身份写道',
    narrator: '玩家以旁白的身份写道',
  },
};
