import type { CharacterCardSpec, Language, LoreBookInput } from '@taleloom/contracts';
import { ErrorCode } from '@taleloom/contracts';
import { AppException } from '../../common/app-exception';
import { cardBook } from './card-book';
import { readPngTextChunks } from './png-chunks';

/** The fields of a V1/V2/V3 card this product uses (spec: peers.md "Character cards"). */
export interface CardData {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  system_prompt: string;
  alternate_greetings: string[];
  /** The card's `character_book`, as it came (see card-book.ts). */
  book: unknown;
}

export interface ParsedCard {
  spec: CharacterCardSpec;
  data: CardData;
}

/** Reads the card from a PNG: `ccv3` first, then `chara`; each base64 of UTF-8 JSON. */
export function readCharacterCard(png: Buffer): ParsedCard {
  const texts = readPngTextChunks(png);
  for (const keyword of ['ccv3', 'chara']) {
    for (const chunk of texts.filter((t) => t.keyword.toLowerCase() === keyword)) {
      const card = decodeCard(chunk.text);
      if (card) return card;
    }
  }
  throw new AppException(ErrorCode.CHARACTER_CARD_MISSING);
}

function decodeCard(base64: string): ParsedCard | null {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(base64.trim(), 'base64').toString('utf8'));
  } catch {
    return null;
  }
  return cardFromJson(json);
}

/** A card given as JSON (a PNG's chunk, or a .json card file as peers export them); null when it is not one. */
export function cardFromJson(json: unknown): ParsedCard | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const root = json as Record<string, unknown>;
  const spec: CharacterCardSpec =
    root.spec === 'chara_card_v3' ? 'v3' : root.spec === 'chara_card_v2' ? 'v2' : 'v1';
  const fields = (spec === 'v1' ? root : root.data) as Record<string, unknown> | undefined;
  if (!fields || typeof fields !== 'object') return null;
  const data: CardData = {
    name: str(fields.name) || str(fields.nickname),
    description: str(fields.description),
    personality: str(fields.personality),
    scenario: str(fields.scenario),
    first_mes: str(fields.first_mes),
    mes_example: str(fields.mes_example),
    system_prompt: str(fields.system_prompt),
    alternate_greetings: Array.isArray(fields.alternate_greetings) ? fields.alternate_greetings.map(str).filter(Boolean) : [],
    book: fields.character_book ?? null,
  };
  const hasAnything = Object.entries(data).some(([k, v]) => k !== 'book' && (Array.isArray(v) ? v.length > 0 : v !== ''));
  return hasAnything ? { spec, data } : null;
}

// Card text with its line endings normalised (cards written on Windows carry \r\n, old Macs \r).
function str(v: unknown): string {
  return typeof v === 'string' ? v.replace(/\r\n?/g, '\n').trim() : '';
}

/**
 * Example dialogue as a reader reads it: the `<START>` markers that separate SillyTavern's examples
 * become blank lines between them, numbered when there are several.
 */
function readableExamples(text: string): string {
  const blocks = text
    .split(/^[ \t]*<START>[ \t]*$/im)
    .map((b) => b.trim())
    .filter(Boolean);
  return blocks.length > 1 ? blocks.map((b, i) => `${i + 1}.\n${b}`).join('\n\n') : (blocks[0] ?? '');
}

const HEADINGS: Record<Language, Record<string, string>> = {
  en: {
    character: 'Character', description: 'Description', personality: 'Personality', scenario: 'Scenario',
    system: 'System prompt', examples: 'Example dialogue', alternates: 'Alternate openings',
    prologue: 'Prologue',
  },
  'zh-CN': {
    character: '角色', description: '角色描述', personality: '性格', scenario: '场景', system: '系统提示词',
    examples: '对话示例', alternates: '备选开场', prologue: '开场白',
  },
};

/**
 * Turns a card into the create screen's "prologue and character settings" text: the settings first,
 * the opening message last so the story continues from it. Its book becomes lore entries (cardLore), not text. `{{char}}`/`<BOT>` become the name;
 * `<USER>` becomes `{{user}}`, kept in the text and read as the player's role (or "you" / "你" for the narrator) when a prompt is assembled.
 */
export function cardToText({ data }: ParsedCard, language: Language): string {
  const h = HEADINGS[language];
  const sections: string[] = [];
  // Chinese headings in 【】, English ones in [] (the brackets of each language's own text).
  const heading = language === 'zh-CN' ? (title: string) => `【${title}】` : (title: string) => `[${title}]`;
  const add = (title: string, body: string) => {
    if (body) sections.push(`${heading(title)}\n${body}`);
  };
  add(h.character, data.name);
  add(h.description, data.description);
  add(h.personality, data.personality);
  add(h.scenario, data.scenario);
  add(h.system, data.system_prompt);
  add(h.examples, readableExamples(data.mes_example));
  add(h.alternates, data.alternate_greetings.map((g, i) => `${i + 1}. ${g}`).join('\n'));
  add(h.prologue, data.first_mes);
  return replaceMacros(sections.join('\n\n'), data.name);
}

function replaceMacros(text: string, name: string): string {
  return text
    .replace(/\{\{char\}\}|<BOT>/gi, () => name || '{{char}}')
    .replace(/\{\{user\}\}|<USER>/gi, '{{user}}');
}

/** The card's `character_book` as the story's lore (null when it has none). */
export function cardLore({ data }: ParsedCard, language: Language): LoreBookInput | null {
  return cardBook(data.book, data.name, language);
}
