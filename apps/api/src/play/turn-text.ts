import { storyLanguage } from '../common/story-language';
import type { StoryForPlay } from '../stories/story.repository';
import { formatUserPart } from './context/prompt-builder';
import type { PlayTurn } from './play-turn.schema';

/** The user part and the AI part of a turn as one piece of story text. */
export function joinParts(userText: string, aiText: string): string {
  return [userText.trim(), aiText.trim()].filter(Boolean).join('\n');
}

export type StoryText = Pick<StoryForPlay, 'main_text' | 'prologue_and_characters'>;

/**
 * The user part of a turn: stored with its text, or (a generation whose text was not stored yet, or
 * died first) made again from its role and input, as the send that started it made it.
 */
export function userTextOf(turn: Pick<PlayTurn, 'state' | 'userText' | 'role' | 'input'>, story: StoryText): string {
  if (turn.userText || turn.state === 'idle') return turn.userText ?? '';
  return formatUserPart(turn.role ?? '', turn.input ?? '', storyLanguage(story.main_text || story.prologue_and_characters));
}
