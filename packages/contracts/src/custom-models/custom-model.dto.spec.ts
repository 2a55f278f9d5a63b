import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import {
  baseUrlProblem,
  CreateCustomModelDto,
  customModelNameKey,
  normalizeBaseUrl,
  TestCustomModelDto,
  UpdateCustomModelDto,
} from '../index';

// No reflect-metadata here on purpose: the browser imports these classes without it.
const check = <T extends object>(cls: new () => T, body: object) =>
  validateSync(plainToInstance(cls, body) as object, { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property);

const full = { model_name: 'deepseek-chat', base_url: 'https://api.deepseek.com', api_key: 'sk-1', model_type: 'compatible_openai' };

describe('CreateCustomModelDto', () => {
  it('needs name, address, key and type; reasoning is optional', () => {
    expect(check(CreateCustomModelDto, full)).toEqual([]);
    expect(check(CreateCustomModelDto, { ...full, enable_reasoning: true })).toEqual([]);
    expect(check(CreateCustomModelDto, {})).toEqual(['model_name', 'base_url', 'api_key', 'model_type']);
  });
  it('treats blank fields as missing and knows one type only', () => {
    expect(check(CreateCustomModelDto, { ...full, model_name: '  ', api_key: '\n' })).toEqual(['model_name', 'api_key']);
    expect(check(CreateCustomModelDto, { ...full, model_type: 'anthropic' })).toEqual(['model_type']);
    expect(check(CreateCustomModelDto, { ...full, enable_reasoning: 'yes' })).toEqual(['enable_reasoning']);
    expect(check(CreateCustomModelDto, { ...full, extra: 1 })).toEqual(['extra']);
  });
  it('trims what it keeps', () => {
    const dto = plainToInstance(CreateCustomModelDto, { ...full, api_key: ' sk-1\n', model_name: ' m ' });
    expect([dto.api_key, dto.model_name]).toEqual(['sk-1', 'm']);
  });
});

describe('UpdateCustomModelDto and TestCustomModelDto', () => {
  it('update: every field optional, an empty key keeps the stored one', () => {
    expect(check(UpdateCustomModelDto, {})).toEqual([]);
    expect(check(UpdateCustomModelDto, { api_key: '' })).toEqual([]);
    expect(check(UpdateCustomModelDto, { model_name: '' })).toEqual(['model_name']);
  });
  it('test: the key may be left out only when a saved model lends its own', () => {
    const { api_key: _key, ...noKey } = full;
    expect(check(TestCustomModelDto, full)).toEqual([]);
    expect(check(TestCustomModelDto, noKey)).toEqual(['api_key']);
    expect(check(TestCustomModelDto, { ...noKey, saved_name: 'deepseek-chat' })).toEqual([]);
    expect(check(TestCustomModelDto, { ...noKey, api_key: '', saved_name: 'x' })).toEqual([]);
  });
});

describe('base URL rule and name key', () => {
  it('keeps the version segment and refuses the endpoint path', () => {
    expect(baseUrlProblem('https://api.openai.com/v1')).toBeNull();
    expect(baseUrlProblem('http://localhost:11434/v1/')).toBeNull();
    expect(baseUrlProblem('https://api.openai.com/v1/chat/completions')).toBe('endpoint');
    expect(baseUrlProblem('https://api.openai.com/v1/chat/completions/')).toBe('endpoint');
    expect(baseUrlProblem('https://api.openai.com/v1/completions')).toBe('endpoint');
    expect(baseUrlProblem('api.openai.com/v1')).toBe('format');
    expect(baseUrlProblem('ftp://example.com')).toBe('format');
    expect(baseUrlProblem('https://user:pw@example.com/v1')).toBe('format');
    expect(baseUrlProblem('https://example.com/v1?x=1')).toBe('format');
    expect(normalizeBaseUrl(' https://api.deepseek.com/// ')).toBe('https://api.deepseek.com');
  });
  it('compares names without regard to case or width', () => {
    expect(customModelNameKey(' GPT-4o ')).toBe(customModelNameKey('gpt-4O'));
    expect(customModelNameKey('ＧＰＴ')).toBe('gpt');
  });
});
