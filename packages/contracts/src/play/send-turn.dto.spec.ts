import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { SendTurnDto, sendsOwnModel } from '../index';

// No reflect-metadata here on purpose: the browser imports these classes without it.
const check = (body: object) =>
  validateSync(plainToInstance(SendTurnDto, body) as object, { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property).sort();

const own = { model_type: 'compatible_openai', base_url: 'https://api.deepseek.com/v1', api_key: 'sk-1', model_name: 'deepseek-chat' };

describe('SendTurnDto: the model fields', () => {
  it('takes a send without them, a platform model, a saved custom model by name, and blank key and address', () => {
    expect(check({ content: 'Hi' })).toEqual([]);
    expect(check({ model_name: 'paid' })).toEqual([]);
    expect(check({ model_type: 'compatible_openai', model_name: 'mine' })).toEqual([]);
    expect(check({ model_type: 'platform', model_name: '', api_key: '', base_url: '', enable_reasoning: false })).toEqual([]);
    expect(sendsOwnModel({ api_key: ' ', base_url: '' })).toBe(false);
  });
  it("takes the send's own model whole, with or without model_type", () => {
    expect(check(own)).toEqual([]);
    expect(check({ ...own, model_type: undefined, enable_reasoning: true })).toEqual([]);
    expect(sendsOwnModel(own)).toBe(true);
  });
  it('names what is missing or wrong when it comes partly', () => {
    expect(check({ base_url: own.base_url })).toEqual(['api_key', 'model_name']);
    expect(check({ api_key: own.api_key })).toEqual(['base_url', 'model_name']);
    expect(check({ ...own, model_name: '  ' })).toEqual(['model_name']);
    expect(check({ ...own, model_type: 'platform' })).toEqual(['model_type']);
    expect(check({ ...own, api_key: 'k'.repeat(1025) })).toEqual(['api_key']);
    expect(check({ ...own, base_url: 42 })).toEqual(['base_url']);
    expect(check({ ...own, enable_reasoning: 'yes' })).toEqual(['enable_reasoning']);
  });
});
