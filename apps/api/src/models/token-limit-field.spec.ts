import OpenAI from 'openai';
import { refusesTokenField, TokenLimitFields, type TokenLimitField } from './token-limit-field';

const apiError = (status: number, error: object) => OpenAI.APIError.generate(status, { error }, undefined, new Headers());
// What OpenAI answers o1, o3, o4-mini and gpt-5 when a request carries max_tokens.
const OPENAI_REFUSAL = {
  message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
  type: 'invalid_request_error',
  param: 'max_tokens',
  code: 'unsupported_parameter',
};

describe('refusesTokenField', () => {
  it("recognises OpenAI's refusal of max_tokens, and only of that field", () => {
    expect(refusesTokenField(apiError(400, OPENAI_REFUSAL), 'max_tokens')).toBe(true);
    // The message names max_completion_tokens too, but the refused parameter is max_tokens.
    expect(refusesTokenField(apiError(400, OPENAI_REFUSAL), 'max_completion_tokens')).toBe(false);
  });

  it('recognises a refusal told in the message only (no param), by the field named', () => {
    const azure = apiError(400, { message: 'Unrecognized request argument supplied: max_completion_tokens' });
    expect(refusesTokenField(azure, 'max_completion_tokens')).toBe(true);
    expect(refusesTokenField(azure, 'max_tokens')).toBe(false);
    const plain = apiError(422, { message: 'max_tokens is not supported for this model' });
    expect(refusesTokenField(plain, 'max_tokens')).toBe(true);
  });

  it('is not fooled by other failures: a bad value of the field, other statuses, no HTTP answer', () => {
    const tooLarge = apiError(400, {
      message: 'max_tokens is too large: 100000. This model supports at most 16384 completion tokens.',
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: null,
    });
    expect(refusesTokenField(tooLarge, 'max_tokens')).toBe(false);
    expect(refusesTokenField(apiError(500, OPENAI_REFUSAL), 'max_tokens')).toBe(false);
    expect(refusesTokenField(apiError(401, OPENAI_REFUSAL), 'max_tokens')).toBe(false);
    expect(refusesTokenField(new Error("Unsupported parameter: 'max_tokens'"), 'max_tokens')).toBe(false);
    expect(refusesTokenField(new OpenAI.APIConnectionError({ message: 'max_tokens unsupported' }), 'max_tokens')).toBe(false);
  });
});

describe('TokenLimitFields', () => {
  const BASE = 'https://api.openai.com/v1';
  // A provider that takes only `accepts`, refusing the other field the way OpenAI does.
  const provider = (accepts: TokenLimitField) => {
    const sent: TokenLimitField[] = [];
    const request = async (field: TokenLimitField) => {
      sent.push(field);
      if (field !== accepts) throw apiError(400, { ...OPENAI_REFUSAL, param: field, message: `Unsupported parameter: '${field}'` });
      return `ok with ${field}`;
    };
    return { sent, request };
  };

  it('sends max_tokens first; on a refusal sends once more with max_completion_tokens and remembers it for that address and model', async () => {
    const fields = new TokenLimitFields();
    const o3 = provider('max_completion_tokens');
    expect(await fields.send(BASE, 'o3', o3.request)).toBe('ok with max_completion_tokens');
    expect(o3.sent).toEqual(['max_tokens', 'max_completion_tokens']);
    // Known now: the next request goes out right the first time, also written with a trailing slash.
    expect(await fields.send(`${BASE}/`, 'o3', o3.request)).toBe('ok with max_completion_tokens');
    expect(o3.sent).toEqual(['max_tokens', 'max_completion_tokens', 'max_completion_tokens']);
    // Another model, or the same name at another address, starts from the default.
    expect(fields.fieldFor(BASE, 'gpt-4o')).toBe('max_tokens');
    expect(fields.fieldFor('http://127.0.0.1:11434/v1', 'o3')).toBe('max_tokens');
  });

  it('learns back: a remembered field the provider now refuses flips to max_tokens again (and takes no room)', async () => {
    const fields = new TokenLimitFields();
    fields.remember(BASE, 'm', 'max_completion_tokens');
    const old = provider('max_tokens');
    expect(await fields.send(BASE, 'm', old.request)).toBe('ok with max_tokens');
    expect(old.sent).toEqual(['max_completion_tokens', 'max_tokens']);
    expect(fields.fieldFor(BASE, 'm')).toBe('max_tokens');
    expect(fields.size).toBe(0);
  });

  it('sends at most twice; a provider that refuses both fields keeps the default and the last refusal is thrown', async () => {
    const fields = new TokenLimitFields();
    const sent: TokenLimitField[] = [];
    const neither = async (field: TokenLimitField): Promise<string> => {
      sent.push(field);
      throw apiError(400, { message: `Unsupported parameter: '${field}'`, param: field, code: 'unsupported_parameter' });
    };
    await expect(fields.send(BASE, 'odd', neither)).rejects.toMatchObject({ param: 'max_completion_tokens' });
    expect(sent).toEqual(['max_tokens', 'max_completion_tokens']);
    expect(fields.fieldFor(BASE, 'odd')).toBe('max_tokens');
  });

  it('does not retry other failures; a retry that fails for another reason still remembers the field', async () => {
    const fields = new TokenLimitFields();
    let calls = 0;
    const busy = async () => {
      calls++;
      throw apiError(429, { message: 'Rate limit reached for max_tokens' });
    };
    await expect(fields.send(BASE, 'gpt-4o', busy)).rejects.toMatchObject({ status: 429 });
    expect(calls).toBe(1);

    const sent: TokenLimitField[] = [];
    const refusesThenBusy = async (field: TokenLimitField): Promise<string> => {
      sent.push(field);
      if (field === 'max_tokens') throw apiError(400, OPENAI_REFUSAL);
      throw apiError(429, { message: 'Rate limit reached' });
    };
    await expect(fields.send(BASE, 'o1', refusesThenBusy)).rejects.toMatchObject({ status: 429 });
    expect(sent).toEqual(['max_tokens', 'max_completion_tokens']);
    expect(fields.fieldFor(BASE, 'o1')).toBe('max_completion_tokens');
  });

  it('is bounded: past its size the least recently learnt pair is forgotten', () => {
    const fields = new TokenLimitFields(3);
    for (const m of ['a', 'b', 'c']) fields.remember(BASE, m, 'max_completion_tokens');
    // Learning `a` again makes it the newest.
    fields.remember(BASE, 'a', 'max_completion_tokens');
    fields.remember(BASE, 'd', 'max_completion_tokens');
    expect(fields.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((m) => fields.fieldFor(BASE, m))).toEqual([
      'max_completion_tokens',
      'max_tokens',
      'max_completion_tokens',
      'max_completion_tokens',
    ]);
  });
});
