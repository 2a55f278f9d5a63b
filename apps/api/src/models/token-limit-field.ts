import { APIError } from 'openai/error';

/** The request field that caps a reply's length. */
export type TokenLimitField = 'max_tokens' | 'max_completion_tokens';

// Most OpenAI-compatible servers (Ollama, vLLM, DeepSeek, older gateways) only know max_tokens.
const DEFAULT_FIELD: TokenLimitField = 'max_tokens';
// Plenty for the distinct (address, model) pairs one process talks to; the oldest is forgotten first.
const MAX_REMEMBERED = 500;

/** The cap as a request's field: `{max_tokens: n}` or `{max_completion_tokens: n}`. */
export function tokenLimit(field: TokenLimitField, n: number): { max_tokens: number } | { max_completion_tokens: number } {
  return field === 'max_tokens' ? { max_tokens: n } : { max_completion_tokens: n };
}

/**
 * True when a provider refused the request because it does not take `field`: OpenAI's reasoning
 * models (o1, o3, o4-mini, gpt-5) answer 400 `unsupported_parameter` for max_tokens. A 400 about
 * the field's value ("max_tokens is too large") is not a refusal of the field.
 */
export function refusesTokenField(error: unknown, field: TokenLimitField): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  const said = `${error.code ?? ''} ${error.message}`;
  if (!/unsupported|not supported|unrecognized|unknown/i.test(said)) return false;
  // A provider that names the refused parameter (OpenAI's `param`) is taken at its word; otherwise
  // the message must name the field (word bounds: max_tokens is no part of max_completion_tokens).
  return error.param ? error.param === field : new RegExp(`\\b${field}\\b`).test(said);
}

/**
 * Which field each provider address and model takes, learnt when one refuses the default. Kept in
 * the process only (bounded, oldest forgotten first): at worst a restart costs one refused request.
 */
export class TokenLimitFields {
  private readonly learnt = new Map<string, TokenLimitField>();

  constructor(private readonly max = MAX_REMEMBERED) {}

  get size(): number {
    return this.learnt.size;
  }

  fieldFor(baseURL: string, model: string): TokenLimitField {
    return this.learnt.get(key(baseURL, model)) ?? DEFAULT_FIELD;
  }

  remember(baseURL: string, model: string, field: TokenLimitField): void {
    const k = key(baseURL, model);
    this.learnt.delete(k);
    // Only departures from the default take room.
    if (field === DEFAULT_FIELD) return;
    this.learnt.set(k, field);
    if (this.learnt.size > this.max) this.learnt.delete(this.learnt.keys().next().value!);
  }

  /**
   * Sends with the field this provider and model are known to take; when the provider answers that
   * it does not take that field, sends once more with the other one and remembers the answer. The
   * refusal comes before any reply, so nothing the user saw is repeated.
   */
  async send<T>(baseURL: string, model: string, request: (field: TokenLimitField) => Promise<T>): Promise<T> {
    const first = this.fieldFor(baseURL, model);
    try {
      return await request(first);
    } catch (error) {
      if (!refusesTokenField(error, first)) throw error;
      const other: TokenLimitField = first === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
      try {
        const result = await request(other);
        this.remember(baseURL, model, other);
        return result;
      } catch (again) {
        // Refused for something else (a busy provider, a wrong key): the field itself was taken.
        if (!refusesTokenField(again, other)) this.remember(baseURL, model, other);
        throw again;
      }
    }
  }
}

function key(baseURL: string, model: string): string {
  return `${baseURL.replace(/\/+$/, '')}\n${model}`;
}

/** The process's one memory, shared by generations and connection tests. */
export const tokenLimitFields = new TokenLimitFields();
