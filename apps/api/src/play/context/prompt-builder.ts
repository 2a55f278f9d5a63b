import type { ChatMessage } from '../../models/chat-provider';
import { DEFAULT_SYSTEM_PROMPT, DEFAULT_USER_PROMPT, LABELS, PLAY_MODE_INSTRUCTIONS, TARGET_TYPE_LABELS, type PromptLanguage } from './default-prompts';
import type { AssembledPrompt, PromptBudget, PromptStory, PromptTurn } from './prompt-types';
import { sharedTokenCounter, type TokenCounter } from './token-counter';

// Tokens a chat message costs beyond its content (role and separators), per OpenAI's accounting.
const MESSAGE_OVERHEAD = 4;
// After a fold, the text window is refilled only to this share of its budget, so folds are rare.
const FOLD_KEEP_SHARE = 0.6;
// A prologue never takes more than this share of the room left for the prompt.
const PROLOGUE_MAX_SHARE = 0.4;

/**
 * zh when at least a fifth of the letters near the end of the story (its last 3000 UTF-16 code units)
 * are CJK (U+3400-U+9FFF); letters are those and A-Z, a-z. Counted in one pass without building a
 * string per letter: it runs two or three times on every send (a regular expression's match list
 * cost ~0.1 ms and its garbage each time).
 */
export function storyLanguage(text: string): PromptLanguage {
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

/** The player's line as it goes into the story text: "Role: content", or the content alone for the narrator. */
export function formatUserPart(role: string, content: string, language: PromptLanguage): string {
  const line = content.trim();
  if (!line) return '';
  const who = role.trim();
  return who ? `${who}${language === 'zh' ? '：' : ': '}${line}` : line;
}

/**
 * Builds the prompt for one turn, most stable part first (so providers' prefix caches keep hitting):
 *   1. system: the system prompt (default or custom) and the play-mode instructions (in the task modes
 *      with the story's goal and the open targets of its current task group);
 *   2. user: prologue and characters, hidden settings, the previous summary, then as much of the newest
 *      story text as fits the context window minus the reply budget (counted with a real tokenizer);
 *   3. user: the author's note, the user prompt (default or custom) and the player's line.
 * When older text no longer fits and is not yet covered by the summary, `fold` says which part to
 * fold into the summary.
 */
export function assemblePrompt(
  story: PromptStory,
  turn: PromptTurn,
  budget: PromptBudget,
  summarizedChars: number,
  counter: TokenCounter = sharedTokenCounter,
): AssembledPrompt {
  const language = storyLanguage(story.main_text || story.prologue_and_characters);
  const L = LABELS[language];
  const available = budget.contextWindow - budget.maxOutput - Math.max(32, Math.ceil(budget.contextWindow * 0.01));

  const system = [
    story.settings_system_prompt_switch === 'custom' && story.settings_system_prompt_text.trim()
      ? story.settings_system_prompt_text.trim()
      : DEFAULT_SYSTEM_PROMPT[language],
    PLAY_MODE_INSTRUCTIONS[story.play_mode]?.[language] ?? PLAY_MODE_INSTRUCTIONS.fly_free[language],
    story.play_mode !== 'fly_free' && story.goal.trim() ? `${L.goal}: ${story.goal.trim()}` : '',
    story.play_mode !== 'fly_free' ? targetList(story, language) : '',
  ]
    .filter(Boolean)
    .join('\n\n');

  const prologue = capHead(story.prologue_and_characters.trim(), Math.floor(available * PROLOGUE_MAX_SHARE), counter);
  const context = [
    section(L.setup, prologue),
    section(L.hidden, story.hidden_settings),
    section(L.summary, story.previous_summary),
  ]
    .filter(Boolean)
    .join('\n\n');
  const storyHeading = `## ${L.story}\n`;

  const userPrompt =
    story.settings_user_prompt_switch === 'custom' && story.settings_user_prompt_text.trim()
      ? story.settings_user_prompt_text.trim()
      : DEFAULT_USER_PROMPT[language];
  const line = turn.content.trim();
  const who = turn.role.trim() ? L.player.replace('{role}', turn.role.trim()) : L.narrator;
  const final = [section(L.note, story.author_remark), userPrompt, line ? `${who}:\n${line}` : ''].filter(Boolean).join('\n\n');

  const fixed =
    counter.count(system) + counter.count(context) + counter.count(storyHeading) + counter.count(final) + 3 * MESSAGE_OVERHEAD + 3;
  const textBudget = Math.max(0, available - fixed);
  const text = story.main_text;
  const fit = counter.tailThatFits(text, textBudget);
  const summarized = Math.min(Math.max(0, summarizedChars), text.length);
  let fold: AssembledPrompt['fold'] = null;
  if (fit.start > summarized) {
    const keep = counter.tailThatFits(text, Math.floor(textBudget * FOLD_KEEP_SHARE));
    fold = { from: summarized, to: Math.max(keep.start, fit.start) };
  }
  const body = [context, `${storyHeading}${text.slice(fit.start)}`].filter(Boolean).join('\n\n');
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: body },
      { role: 'user', content: final },
    ] satisfies ChatMessage[],
    promptTokens: fixed + fit.tokens,
    textStart: fit.start,
    fold,
  };
}

// The open targets, one per line with their kind: what the task modes steer toward.
function targetList(story: PromptStory, language: PromptLanguage): string {
  const targets = (story.open_targets ?? []).filter((t) => t.title.trim());
  if (!targets.length) return '';
  const kinds = TARGET_TYPE_LABELS[language];
  return `${LABELS[language].targets}:\n${targets.map((t) => `- (${kinds[t.type] ?? t.type}) ${t.title.trim()}`).join('\n')}`;
}

function section(title: string, content: string): string {
  const text = content.trim();
  return text ? `## ${title}\n${text}` : '';
}

// Keeps the beginning of a very long text within `maxTokens`.
function capHead(text: string, maxTokens: number, counter: TokenCounter): string {
  if (counter.count(text) <= maxTokens) return text;
  let end = Math.floor(text.length * 0.9);
  while (end > 0 && counter.count(text.slice(0, end)) > maxTokens) end = Math.floor(end * 0.8);
  return text.slice(0, end);
}
