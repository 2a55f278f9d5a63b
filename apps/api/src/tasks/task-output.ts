// Reading the model's answers to task requests: find the JSON in the text (a fenced block or the
// outermost object or array), parse it, and validate each item with class-validator. Items are also
// picked out while the answer streams, so suggestions and verdicts show up before the model is done.
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import {
  MAIN_CHARACTER_MAX_LENGTH,
  REASON_MAX_LENGTH,
  SERIES_NAME_MAX_LENGTH,
  TARGET_TYPES,
  TASK_TARGETS_MAX,
  TASK_TARGETS_MIN,
  TASK_TITLE_MAX_LENGTH,
  EVIDENCE_MAX_LENGTH,
  type TargetType,
  type TaskGroupDraft,
} from '@taleloom/contracts';

/** The model's answer could not be read (not JSON, wrong shape, nothing valid in it). */
export class TaskOutputInvalid extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TaskOutputInvalid';
  }
}

/**
 * The JSON value in a model's answer: the content of a ```json fence if there is one, else the
 * outermost balanced object or array (prose around it is ignored).
 */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  const candidates = fenced ? [fenced[1], text] : [text];
  for (const candidate of candidates) {
    const block = outermostValue(candidate);
    if (block === null) continue;
    try {
      return JSON.parse(block) as unknown;
    } catch {
      // try the next candidate
    }
  }
  throw new TaskOutputInvalid('no JSON object or array in the answer');
}

// The first balanced {...} or [...] in the text (strings and escapes respected), or null.
function outermostValue(text: string): string | null {
  const start = text.search(/[[{]/);
  if (start === -1) return null;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

/**
 * Picks the items of the answer's list out of a streaming answer: the objects directly inside the
 * first array (`{"groups":[{...},{...}]}` or `[{...},{...}]`), each as soon as it is closed.
 */
export class JsonItemScanner {
  private stack: string[] = [];
  private inString = false;
  private escaped = false;
  private itemStart = -1;
  private text = '';
  private listDepth = -1;
  private done = false;

  /** Feeds more of the answer; answers the items completed by it, as JSON text. */
  push(chunk: string): string[] {
    const items: string[] = [];
    const from = this.text.length;
    this.text += chunk;
    for (let i = from; i < this.text.length && !this.done; i++) {
      const c = this.text[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') {
        if (this.stack.length) this.inString = true;
      } else if (c === '{' || c === '[') {
        if (c === '[' && this.listDepth === -1) this.listDepth = this.stack.length + 1;
        this.stack.push(c);
        if (c === '{' && this.stack.length === this.listDepth + 1) this.itemStart = i;
      } else if (c === '}' || c === ']') {
        if (!this.stack.length) continue;
        this.stack.pop();
        if (c === '}' && this.itemStart !== -1 && this.stack.length === this.listDepth) {
          items.push(this.text.slice(this.itemStart, i + 1));
          this.itemStart = -1;
        }
        if (this.listDepth !== -1 && this.stack.length < this.listDepth) this.done = true;
      }
    }
    return items;
  }
}

const clip = (max: number) => ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().slice(0, max) : value);
const toNumber = ({ value }: { value: unknown }) => {
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*%?\s*$/.test(value)) return Number(value.replace('%', ''));
  return value;
};
// 0.7 and "70%" both mean 70.
const toPercent = ({ value }: { value: unknown }) => {
  const n = toNumber({ value });
  if (typeof n !== 'number' || !Number.isFinite(n)) return n === null || n === undefined ? null : n;
  const percent = n > 0 && n < 1 ? n * 100 : n;
  return Math.round(Math.min(100, Math.max(0, percent)));
};
const toType = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (v.startsWith('emo') || v.includes('情感') || v.includes('情绪')) return 'emotion';
  if (v.startsWith('real') || v.includes('现实')) return 'reality';
  return v;
};
const toBoolean = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  return ['true', 'yes', 'y', '是'].includes(v) ? true : ['false', 'no', 'n', '否'].includes(v) ? false : value;
};

class ModelTarget {
  @Transform(clip(TASK_TITLE_MAX_LENGTH)) @IsString() @IsNotEmpty() title!: string;
  @Transform(toType) @IsIn(TARGET_TYPES as unknown as string[]) type!: TargetType;
  @Transform(toNumber) @IsInt() @Min(1) @Max(3) score!: number;
  @IsOptional() @Transform(toPercent) @IsInt() @Min(0) @Max(100) probability?: number | null;
}

class ModelGroup {
  @Transform(clip(SERIES_NAME_MAX_LENGTH)) @IsString() @IsNotEmpty() series_name!: string;
  @IsOptional() @Transform(clip(MAIN_CHARACTER_MAX_LENGTH)) @IsString() main_character?: string;
}

class ModelVerdict {
  @Transform(toNumber) @IsInt() @Min(1) index!: number;
  @Transform(toBoolean) @IsBoolean() completed!: boolean;
  @IsOptional() @Transform(clip(EVIDENCE_MAX_LENGTH)) @IsString() evidence?: string;
  @IsOptional() @Transform(clip(REASON_MAX_LENGTH)) @IsString() reason?: string;
  @IsOptional() @Transform(toPercent) @IsInt() @Min(0) @Max(100) probability?: number | null;
}

function valid<T extends object>(cls: new () => T, raw: unknown): T | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const instance = plainToInstance(cls, raw, { excludeExtraneousValues: false });
  return validateSync(instance).length === 0 ? instance : null;
}

/** A suggested group, or null when it does not hold up (then it is left out). */
export function readGroup(raw: unknown): TaskGroupDraft | null {
  const group = valid(ModelGroup, raw);
  const rawTargets = (raw as { targets?: unknown; tasks?: unknown } | null)?.targets ?? (raw as { tasks?: unknown } | null)?.tasks;
  if (!group || !Array.isArray(rawTargets)) return null;
  const targets = rawTargets.map((t) => valid(ModelTarget, t)).filter((t): t is ModelTarget => t !== null).slice(0, TASK_TARGETS_MAX);
  if (targets.length < TASK_TARGETS_MIN) return null;
  return {
    series_name: group.series_name,
    main_character: group.main_character ?? '',
    targets: targets.map((t) => ({ title: t.title, type: t.type, score: t.score, probability: t.probability ?? null })),
  };
}

// The list in an answer: the value itself, or its first array-valued field.
function listOf(value: unknown, names: string[]): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of names) if (Array.isArray(record[name])) return record[name] as unknown[];
    const first = Object.values(record).find(Array.isArray);
    if (first) return first as unknown[];
  }
  throw new TaskOutputInvalid('the answer holds no list');
}

/** The suggested groups of a whole answer (at most `max`); invalid ones are left out, none valid is an error. */
export function readGroups(text: string, max: number): TaskGroupDraft[] {
  const groups = listOf(extractJson(text), ['groups', 'task_groups', 'tasks'])
    .map(readGroup)
    .filter((g): g is TaskGroupDraft => g !== null)
    .slice(0, max);
  if (!groups.length) throw new TaskOutputInvalid('no valid task group in the answer');
  return groups;
}

/** One judgement as the model wrote it (`index` is 1-based, as the prompt numbers the targets). */
export interface ModelJudgement {
  index: number;
  completed: boolean;
  evidence: string;
  reason: string;
  probability: number | null;
}

export function readJudgement(raw: unknown): ModelJudgement | null {
  const v = valid(ModelVerdict, raw);
  if (!v) return null;
  return { index: v.index, completed: v.completed, evidence: v.evidence ?? '', reason: v.reason ?? '', probability: v.probability ?? null };
}

/** The judgements of a whole answer; every one of `expected` (1-based numbers) must be there. */
export function readJudgements(text: string, expected: number[]): Map<number, ModelJudgement> {
  const found = new Map<number, ModelJudgement>();
  for (const raw of listOf(extractJson(text), ['targets', 'verdicts', 'results'])) {
    const j = readJudgement(raw);
    if (j && expected.includes(j.index) && !found.has(j.index)) found.set(j.index, j);
  }
  const missing = expected.filter((n) => !found.has(n));
  if (missing.length) throw new TaskOutputInvalid(`no judgement for target(s) ${missing.join(', ')}`);
  return found;
}

/** The story text as quotes are looked up in: quotes, dashes, width, case and spacing made uniform. */
export function normaliseForQuotes(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[“”„‟«»「」『』"]/g, '"')
    .replace(/[‘’‛`']/g, "'")
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/\s+/g, ' ');
}

/**
 * Whether a quoted passage is in the story: after normalising quotes, dashes and spacing; a quote
 * shortened with an ellipsis counts when its parts appear in order. `normalised` is the story text
 * through normaliseForQuotes (done once for a long story, not per quote).
 */
export function quoteIsInText(quote: string, text: string, normalised = normaliseForQuotes(text)): boolean {
  const parts = normaliseForQuotes(quote)
    .split(/\s*(?:\.\.\.|…)+\s*/)
    .map((p) => p.trim().replace(/^["'\s]+|["'\s]+$/g, ''))
    .filter((p) => p.length > 0);
  if (!parts.length || parts.join('').length < 2) return false;
  let from = 0;
  for (const part of parts) {
    const at = normalised.indexOf(part, from);
    if (at === -1) return false;
    from = at + part.length;
  }
  return true;
}
