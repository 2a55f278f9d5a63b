import { DEMO_MODEL_VALUE } from '@taleloom/contracts';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError, type EnvironmentVariables } from './env.validation';

/** One platform model as the operator configures it (MODELS_FILE / MODELS_JSON). */
export interface PlatformModel {
  /** Shown in the model selector. */
  label: string;
  /** The id a story stores and a send names. */
  value: string;
  /** Power charged for a full-length reply; shorter replies cost proportionally less (at least 1). */
  points: number;
  /** Context window and reply budget, in tokens. */
  contextWindow: number;
  maxOutput: number;
  /** OpenAI-compatible base URL (…/v1). The demo model's is filled in when its server starts. */
  baseURL: string;
  /** Name of the environment variable holding the key; empty for providers that need none. */
  apiKeyEnv: string;
  /** The provider's model name, when it differs from `value`. */
  model: string;
  /** Ask for and relay reasoning (`reasoning_content`) when the provider sends it. */
  enableReasoning: boolean;
  demo: boolean;
}

const DEFAULTS = { points: 0, contextWindow: 8192, maxOutput: 512, apiKeyEnv: '', enableReasoning: false };

export const DEMO_MODEL: PlatformModel = {
  label: 'TaleLoom Demo (offline)',
  value: DEMO_MODEL_VALUE,
  points: 0,
  contextWindow: 8192,
  maxOutput: 400,
  baseURL: '',
  apiKeyEnv: '',
  model: 'taleloom-demo',
  enableReasoning: false,
  demo: true,
};

/**
 * The platform models: MODELS_FILE, then MODELS_JSON (same value replaces), then the demo model
 * (DEMO_MODEL=auto offers it only when nothing else is configured). The first is the default.
 * A malformed list stops start-up with a sentence naming the variable.
 */
export function loadPlatformModels(
  env: Pick<EnvironmentVariables, 'MODELS_FILE' | 'MODELS_JSON' | 'DEMO_MODEL' | 'DEMO_MODEL_POINTS'>,
  cwd = process.cwd(),
  vars: Record<string, string | undefined> = process.env,
): PlatformModel[] {
  const byValue = new Map<string, PlatformModel>();
  if (env.MODELS_FILE) {
    const path = isAbsolute(env.MODELS_FILE) ? env.MODELS_FILE : resolve(cwd, env.MODELS_FILE);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(`Configuration variable MODELS_FILE names a file that cannot be read (${path}): ${(error as Error).message}.`);
    }
    for (const m of parseModelList(text, 'MODELS_FILE', vars)) byValue.set(m.value, m);
  }
  if (env.MODELS_JSON) {
    for (const m of parseModelList(env.MODELS_JSON, 'MODELS_JSON', vars)) byValue.set(m.value, m);
  }
  const wantDemo = env.DEMO_MODEL === 'on' || (env.DEMO_MODEL === 'auto' && byValue.size === 0);
  if (wantDemo && !byValue.has(DEMO_MODEL_VALUE)) {
    byValue.set(DEMO_MODEL_VALUE, { ...DEMO_MODEL, points: env.DEMO_MODEL_POINTS });
  }
  if (byValue.size === 0) {
    throw new ConfigError('Configuration variable DEMO_MODEL is off but MODELS_FILE and MODELS_JSON configure no model: at least one model is needed.');
  }
  return [...byValue.values()];
}

/** Parses and checks a JSON array of model entries; `source` names the variable in errors. */
export function parseModelList(text: string, source: string, vars: Record<string, string | undefined> = {}): PlatformModel[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Configuration variable ${source} is not valid JSON: ${(error as Error).message}.`);
  }
  if (!Array.isArray(raw)) throw new ConfigError(`Configuration variable ${source} must be a JSON array of models.`);
  return raw.map((entry, i) => parseEntry(entry, `${source}[${i}]`, vars));
}

function parseEntry(entry: unknown, where: string, vars: Record<string, string | undefined>): PlatformModel {
  if (!entry || typeof entry !== 'object') throw new ConfigError(`Configuration variable ${where} must be an object.`);
  const e = { ...DEFAULTS, ...(entry as Record<string, unknown>) };
  const fail = (field: string, rule: string) => {
    throw new ConfigError(`Configuration variable ${where}.${field} ${rule} (got ${JSON.stringify(e[field as keyof typeof e])}).`);
  };
  const str = (field: string, required: boolean) => {
    const v = (e as Record<string, unknown>)[field];
    if (v === undefined && !required) return '';
    if (typeof v !== 'string' || (required && !v.trim())) fail(field, 'must be a non-empty string');
    return (v as string).trim();
  };
  const int = (field: string, min: number) => {
    const v = (e as Record<string, unknown>)[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) fail(field, `must be a whole number of at least ${min}`);
    return v as number;
  };
  const value = str('value', true);
  const baseURL = str('baseURL', value !== DEMO_MODEL_VALUE);
  if (baseURL && !/^https?:\/\/[^\s]+$/.test(baseURL)) fail('baseURL', 'must be an http(s) URL');
  // The SDK appends /chat/completions itself: a common mistake is to include it.
  if (/\/chat\/completions\/?$/.test(baseURL)) fail('baseURL', 'must not end with /chat/completions (give the base, e.g. https://api.openai.com/v1)');
  const contextWindow = int('contextWindow', 256);
  const maxOutput = int('maxOutput', 16);
  if (maxOutput >= contextWindow / 2) fail('maxOutput', `must be less than half of contextWindow (${contextWindow})`);
  const enableReasoning = (e as Record<string, unknown>).enableReasoning;
  if (typeof enableReasoning !== 'boolean') fail('enableReasoning', 'must be true or false');
  const points = int('points', 0);
  const apiKeyEnv = str('apiKeyEnv', false);
  if (apiKeyEnv && !vars[apiKeyEnv]) {
    throw new ConfigError(`Configuration variable ${apiKeyEnv} (the key of model ${value}, named by ${where}.apiKeyEnv) is not set.`);
  }
  return {
    label: str('label', false) || value,
    value,
    points,
    contextWindow,
    maxOutput,
    baseURL: baseURL.replace(/\/+$/, ''),
    apiKeyEnv,
    model: str('model', false) || value,
    enableReasoning: enableReasoning as boolean,
    demo: value === DEMO_MODEL_VALUE,
  };
}
