import type { ChatMessage } from '../models/chat-provider';

/** The style every picture gets unless the story sets its own. */
export const DEFAULT_PICTURE_STYLE = 'Storybook illustration, painterly, soft natural light, rich colour, no text or lettering.';

const CHARACTERS_MAX_CHARS = 3000;
const PASSAGE_MAX_CHARS = 2000;
export const PICTURE_PROMPT_MAX_TOKENS = 200;
export const CHARACTER_SHEET_MAX_TOKENS = 300;

const PROMPT_SYSTEM = [
  'You turn a passage of a story into one prompt for an image generator.',
  'Describe only what can be seen in a single moment of the passage: the place, the characters present',
  '(appearance, clothing, expression, pose), light and mood. Keep every character as the character sheet',
  'describes them when there is one. No names of real artists, no text or lettering in the picture.',
  'Answer with the prompt only: one paragraph in English, at most 80 words.',
].join(' ');

const SHEET_SYSTEM = [
  'You design how the characters of a story look, for an illustrator who must draw them the same way in',
  'every picture. For each main character write one line "Name: look", with age, build, face, hair and',
  'clothing in concrete visual words. At most 5 characters, each line under 40 words, in English.',
  'Answer with the lines only.',
].join(' ');

export interface PromptSource {
  /** The story's prologue and character settings. */
  characters: string;
  /** The passage to illustrate. */
  passage: string;
  /** The character sheet, with consistent pictures on. */
  sheet: string;
}

/** The chat request that writes a picture prompt from the passage and the character settings. */
export function picturePromptMessages(source: PromptSource): ChatMessage[] {
  const parts = [tag('characters', head(source.characters, CHARACTERS_MAX_CHARS))];
  if (source.sheet.trim()) parts.push(tag('character-sheet', source.sheet.trim()));
  parts.push(tag('passage', tail(source.passage, PASSAGE_MAX_CHARS)), 'Write the picture prompt for this passage.');
  return [
    { role: 'system', content: PROMPT_SYSTEM },
    { role: 'user', content: parts.join('\n') },
  ];
}

/** The chat request that writes a story's character sheet (consistent pictures). */
export function characterSheetMessages(source: Omit<PromptSource, 'sheet'>): ChatMessage[] {
  return [
    { role: 'system', content: SHEET_SYSTEM },
    {
      role: 'user',
      content: [
        tag('characters', head(source.characters, CHARACTERS_MAX_CHARS)),
        tag('passage', tail(source.passage, PASSAGE_MAX_CHARS)),
        '<sheet-request>Write the character sheet.</sheet-request>',
      ].join('\n'),
    },
  ];
}

/**
 * The prompt the image generator gets: style, scene, then the character sheet (consistency), within
 * `maxChars`. The sheet is sure of a third of the room (or all it needs); the scene gets the rest first.
 */
export function composeImagePrompt(style: string, scene: string, sheet: string, maxChars: number): string {
  const styleText = head(oneLine(style) || DEFAULT_PICTURE_STYLE, Math.floor(maxChars / 4));
  const sheetPart = sheet.trim() ? `Characters:\n${sheet.trim()}` : '';
  const reserve = sheetPart ? Math.min(sheetPart.length, Math.floor(maxChars / 3)) + 2 : 0;
  const sceneText = head(oneLine(scene), maxChars - styleText.length - 2 - reserve);
  const room = maxChars - styleText.length - 2 - sceneText.length - 2;
  return [styleText, sceneText, sheetPart ? head(sheetPart, room) : ''].filter(Boolean).join('\n\n');
}

function tag(name: string, text: string): string {
  return `<${name}>\n${text.trim()}\n</${name}>`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function head(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

function tail(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max + 1).trimStart()}`;
}
