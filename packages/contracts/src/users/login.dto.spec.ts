import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { LoginDto } from '../index';

const check = (body: object) =>
  validateSync(plainToInstance(LoginDto, body), { whitelist: true, forbidNonWhitelisted: true }).map(
    (e) => e.property,
  );

describe('LoginDto', () => {
  it('accepts a username login with a language', () => {
    expect(check({ type: 'username', userName: 'alice', password: 'secret1', language: 'zh-CN' })).toEqual([]);
  });
  it('names the too-short password', () => {
    expect(check({ type: 'username', userName: 'alice', password: '123' })).toEqual(['password']);
  });
  it('rejects unknown types, languages and fields', () => {
    expect(check({ type: 'email', language: 'fr', extra: 1 }).sort()).toEqual(['extra', 'language', 'type']);
  });
  it('rejects operator objects where strings are expected', () => {
    expect(check({ type: 'username', userName: { $ne: '' }, password: 'secret1' })).toEqual(['userName']);
  });
});
