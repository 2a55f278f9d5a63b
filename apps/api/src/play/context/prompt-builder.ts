import type { PromptMessage, PromptPart, PromptPartKind } from '@taleloom/contracts';
import type { ChatMessage } from '../../models/chat-provider';
import { DEFAULT_SYSTEM_PROMPT, DEFAULT_USER_PROMPT, LABELS, NARRATOR_USER, PLAY_MODE_INSTRUCTIONS, TARGET_TYPE_LABELS, type PromptLanguage } from './default-prompts';
import type { AssembledPrompt, PromptBudget, PromptStory, PromptTurn } from './prompt-types';
import { storyLanguage } from '../../common/story-language';
import { sharedTokenCounter, type TokenCounter } from '../../generation/token-counter';
import { activateLore } from '../../lore/lore-activation';

// Tokens a chat message costs beyond its content (role and separators), per OpenAI's accounting.
const MESSAGE_OVERHEAD = 4;
// The reply's priming tokens.
const REPLY_PRIMING = 3;
// After a fold, the text window is refilled only to this share of its budget, so folds are rare.
const FOLD_KEEP_SHARE = 0.6;
// A prologue never takes more than this share of the room left for the prompt.
const PROLOGUE_MAX_SHARE = 0.4;
// The lore never takes more than this share of the room left for lore and story text.
const LORE_MAX_SHARE = 0.5;
const SEPARATOR = '\n\n';
// A label's colon: full-width in Chinese, as Chinese text writes it.
const COLON: Record<PromptLanguage, string> = { en: ':', zh: '：' };

/** The player's line as it goes into the story text: "Role: content", or the content alone for the narrator. */
export function formatUserPart(role: string, content: string, language: PromptLanguage): string {
  const line = content.trim();
  if (!line) return '';
  const who = role.trim();
  return who ? `${who}${language === 'zh' ? '：' : ': '}${line}` : line;
}

type Piece = Omit<PromptPart, 'tokens' | 'text'> & { text: string; tokens?: number };

const USER_MACRO = /\{\{user\}\}/gi;

/**
 * `{{user}}` (a character card's name for the player, kept as written in the story) as the model reads it:
 * the player's role, or for the narrator "you" / "你".
 */
export function resolveUserMacro(text: string, role: string, language: PromptLanguage): string {
  return replaceUserMacro(text, userName(role, language));
}

function userName(role: string, language: PromptLanguage): string {
  return role.trim() || NARRATOR_USER[language];
}

/** `{{user}}` (any case) replaced by `name`. */
export function replaceUserMacro(text: string, name: string): string {
  return text.includes('{{') ? text.replace(USER_MACRO, () => name) : text;
}

/**
 * Builds the prompt for one turn, most stable part first (so providers' prefix caches keep hitting):
 *   1. system: the system prompt (default or custom) and the play-mode instructions (in the task modes
 *      with the story's goal and the open targets of its current task group);
 *   2. user: prologue and characters, hidden settings, the previous summary, the lore entries that fired
 *      (see lore/lore-activation.ts), then as much of the newest story text as fits the context window
 *      minus the reply budget (counted with a real tokenizer);
 *   3. user: the author's note, the user prompt (default or custom) and the player's line.
 * Every message is kept as its parts too, with their tokens: what the context inspector shows.
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
  // Card text keeps `{{user}}` as stored; every piece but the player's own line reads it as the player's role.
  const withUser = (text: string) => resolveUserMacro(text, turn.role, language);
  const count = (piece: Piece): Piece => ({ ...piece, tokens: piece.tokens ?? counter.count(piece.text) });

  const system = joinPieces([
    {
      kind: 'system',
      text:
        story.settings_system_prompt_switch === 'custom' && story.settings_system_prompt_text.trim()
          ? withUser(story.settings_system_prompt_text.trim())
          : DEFAULT_SYSTEM_PROMPT[language],
    },
    {
      kind: 'play_mode',
      text: [
        PLAY_MODE_INSTRUCTIONS[story.play_mode]?.[language] ?? PLAY_MODE_INSTRUCTIONS.fly_free[language],
        story.play_mode !== 'fly_free' && story.goal.trim() ? `${L.goal}${COLON[language]}${language === 'zh' ? '' : ' '}${withUser(story.goal.trim())}` : '',
        story.play_mode !== 'fly_free' ? targetList(story, language) : '',
      ]
        .filter(Boolean)
        .join(SEPARATOR),
    },
  ]).map(count);

  const prologue = capHead(withUser(story.prologue_and_characters.trim()), Math.floor(available * PROLOGUE_MAX_SHARE), counter);
  const context: Piece[] = [
    { kind: 'prologue', text: section(L.setup, prologue) },
    { kind: 'hidden_settings', text: section(L.hidden, withUser(story.hidden_settings)) },
    { kind: 'summary', text: section(L.summary, withUser(story.previous_summary)) },
  ];

  const userPrompt =
    story.settings_user_prompt_switch === 'custom' && story.settings_user_prompt_text.trim()
      ? withUser(story.settings_user_prompt_text.trim())
      : DEFAULT_USER_PROMPT[language];
  const line = turn.content.trim();
  const who = turn.role.trim() ? L.player.replace('{role}', turn.role.trim()) : L.narrator;
  const final = joinPieces([
    { kind: 'author_note', text: section(L.note, withUser(story.author_remark)) },
    { kind: 'user_prompt', text: userPrompt },
    { kind: 'line', text: line ? `${who}${COLON[language]}\n${line}` : '' },
  ]).map(count);

  const storyHeading = `## ${L.story}\n`;
  const overheadTokens = 3 * MESSAGE_OVERHEAD + REPLY_PRIMING;
  const settled = joinPieces(context).map(count);
  const sum = (pieces: Piece[]) => pieces.reduce((n, p) => n + (p.tokens ?? 0), 0);
  const headingCost = counter.count(SEPARATOR + storyHeading);
  // The room for the lore and the story text.
  const room = Math.max(0, available - sum(system) - sum(settled) - sum(final) - headingCost - overheadTokens);

  // The lore: entries fired by the newest text, the player's line and the author's note.
  const lore = story.lore?.entries.length ? story.lore : null;
  const loreBudget = lore ? Math.min(lore.settings.token_budget, Math.floor(room * LORE_MAX_SHARE)) : 0;
  const loreInfo: AssembledPrompt['lore'] = { budget: loreBudget, used: 0, scanDepth: lore?.settings.scan_depth ?? 0, leftOut: [] };
  let lorePieces: Piece[] = [];
  if (lore) {
    const loreHeading = `## ${L.lore}\n`;
    const headingTokens = counter.count(SEPARATOR + loreHeading);
    const player = withUser('{{user}}');
    const activation = activateLore(
      lore,
      { text: story.main_text, line: turn.content, note: story.author_remark },
      Math.max(0, loreBudget - headingTokens),
      (content) => counter.count(SEPARATOR + content),
      withUser,
      // Rendered for this player and measured by this counter's chunks: the same for every send of it.
      `prompt:${counter.chunkChars}:${player}`,
    );
    lorePieces = activation.fired.map((f, i) => ({ kind: 'lore', text: i === 0 ? loreHeading + f.content : f.content, lore: f.firing }));
    loreInfo.leftOut = activation.leftOut.map((l) => ({ ...l.firing, tokens: l.tokens }));
  }
  const body = joinPieces([...context, ...lorePieces]).map(count);
  const loreTokens = sum(body) - sum(settled);
  loreInfo.used = loreTokens;

  const textBudget = Math.max(0, room - loreTokens);
  const text = story.main_text;
  const fit = counter.tailThatFits(text, textBudget);
  const summarized = Math.min(Math.max(0, summarizedChars), text.length);
  let fold: AssembledPrompt['fold'] = null;
  if (fit.start > summarized) {
    const keep = counter.tailThatFits(text, Math.floor(textBudget * FOLD_KEEP_SHARE));
    fold = { from: summarized, to: Math.max(keep.start, fit.start) };
  }
  // The window is chosen in the stored text (its offsets are the story's); `{{user}}` in it is then resolved
  // and only such a window is counted again (a role name is at most a few tokens longer than the macro).
  const windowText = text.slice(fit.start);
  const shownWindow = withUser(windowText);
  const headingText = `${body.length ? SEPARATOR : ''}${storyHeading}`;
  const textPiece: Piece = {
    kind: 'text',
    text: `${headingText}${shownWindow}`,
    // The window's count is already known unless the macro was resolved in it; the heading is counted here.
    tokens: counter.count(headingText) + (shownWindow === windowText ? fit.tokens : counter.count(shownWindow)),
    from: fit.start,
    to: text.length,
    user: userName(turn.role, language),
  };
  const messages: PromptMessage[] = [
    { role: 'system', parts: system.map(toPart) },
    { role: 'user', parts: [...body, textPiece].map(toPart) },
    { role: 'user', parts: final.map(toPart) },
  ];
  const promptTokens = messages.reduce((n, m) => n + m.parts.reduce((k, p) => k + p.tokens, 0), overheadTokens);
  return {
    messages: messages.map((m) => ({ role: m.role, content: m.parts.map((p) => p.text).join('') })) satisfies ChatMessage[],
    parts: messages,
    promptTokens,
    overheadTokens,
    textStart: fit.start,
    fold,
    lore: loreInfo,
  };
}

// A message's pieces without the empty ones, each after the first preceded by the blank line that joins them.
function joinPieces(pieces: Piece[]): Piece[] {
  const kept = pieces.filter((p) => p.text);
  return kept.map((p, i) => (i === 0 ? p : { ...p, text: SEPARATOR + p.text }));
}

function toPart(piece: Piece): PromptPart {
  return { ...piece, kind: piece.kind as PromptPartKind, tokens: piece.tokens ?? 0 };
}

// The open targets, one per line with their kind: what the task modes steer toward.
function targetList(story: PromptStory, language: PromptLanguage): string {
  const targets = (story.open_targets ?? []).filter((t) => t.title.trim());
  if (!targets.length) return '';
  const kinds = TARGET_TYPE_LABELS[language];
  const [open, close] = language === 'zh' ? ['（', '）'] : ['(', ') '];
  return `${LABELS[language].targets}${COLON[language]}\n${targets.map((t) => `- ${open}${kinds[t.type] ?? t.type}${close}${t.title.trim()}`).join('\n')}`;
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
