import type { ChatMessage } from '../../models/chat-provider';
import type { PromptLanguage } from './default-prompts';
import { sharedTokenCounter, type TokenCounter } from '../../generation/token-counter';

/** The longest summary asked for, in tokens (also bounded by a tenth of the context window). */
export const SUMMARY_MAX_TOKENS = 800;

const INSTRUCTIONS: Record<PromptLanguage, string> = {
  en:
    'You keep the running summary of a long interactive story. Merge the previous summary with the new text ' +
    'into one updated summary: who is who, what happened, what was promised or left open, where things stand. ' +
    'Keep names and facts exact. Write plain prose in English, at most {words} words, with no heading.',
  zh:
    '你负责维护一个长篇互动故事的前情提要。把原有提要和新的正文合并成一份更新后的提要：人物关系、发生了什么、' +
    '有哪些约定或悬念、目前的处境。名字和事实必须准确。用中文平实地写，不超过{words}字，不要标题。',
};

/**
 * The request that folds `text` (older story text that no longer fits the prompt) into the summary.
 * The tags are also what the offline demo model looks for.
 */
export function foldMessages(
  previousSummary: string,
  text: string,
  language: PromptLanguage,
  inputBudget: number,
  summaryTokens: number,
  counter: TokenCounter = sharedTokenCounter,
  lore: string[] = [],
): ChatMessage[] {
  // The lore entries the folded text fires keep names, places and rules exact in the summary.
  const world = lore.length ? `<world-info>\n${lore.join('\n\n')}\n</world-info>\n` : '';
  const overhead = counter.count(previousSummary) + counter.count(world) + 200;
  // When even the text to fold is too long, the newest part of it is kept.
  const fit = counter.tailThatFits(text, Math.max(0, inputBudget - overhead));
  const words = language === 'zh' ? Math.round(summaryTokens * 0.9) : Math.round(summaryTokens * 0.7);
  return [
    { role: 'system', content: INSTRUCTIONS[language].replace('{words}', String(words)) },
    {
      role: 'user',
      content: `<previous-summary>\n${previousSummary.trim()}\n</previous-summary>\n${world}<new-text>\n${text.slice(fit.start)}\n</new-text>`,
    },
  ];
}
