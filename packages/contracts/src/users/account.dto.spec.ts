import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { AnalyticsEventDto, BindMobileDto, LoginDto, ResetPasswordDto, SendSmsDto } from '../index';

const fields = (cls: new () => object, body: object) =>
  validateSync(plainToInstance(cls, body), { whitelist: true, forbidNonWhitelisted: true })
    .map((e) => e.property)
    .sort();

describe('account DTOs', () => {
  it('phone login needs 6-15 digits, a 1-3 digit country code and a 6-digit code', () => {
    expect(fields(LoginDto, { type: 'phone', phoneNum: '13800138000', countryCode: '86', verifyCode: '123456' })).toEqual([]);
    expect(fields(LoginDto, { type: 'phone', phoneNum: '12345', countryCode: '+86', verifyCode: '12345' })).toEqual([
      'countryCode',
      'phoneNum',
      'verifyCode',
    ]);
  });
  it('send-sms: reset_password needs no number; the others do', () => {
    expect(fields(SendSmsDto, { type: 'reset_password' })).toEqual([]);
    expect(fields(SendSmsDto, { type: 'login' })).toEqual(['countryCode', 'phoneNum']);
    expect(fields(SendSmsDto, { type: 'bind' })).toEqual(['countryCode', 'phoneNum', 'type']);
  });
  it('rejects operator objects where strings are expected', () => {
    expect(fields(SendSmsDto, { type: 'login', phoneNum: { $ne: '' }, countryCode: '86' })).toEqual(['phoneNum']);
    expect(fields(BindMobileDto, { phoneNum: '13800138000', countryCode: '86', smsCode: { $gt: '' } })).toEqual(['smsCode']);
    expect(fields(ResetPasswordDto, { smsCode: '123456', newPassword: { $ne: null } })).toEqual(['newPassword']);
    expect(fields(AnalyticsEventDto, { name: { $ne: '' } })).toEqual(['name']);
  });
  it('reset password needs at least 6 characters', () => {
    expect(fields(ResetPasswordDto, { smsCode: '123456', newPassword: '12345' })).toEqual(['newPassword']);
  });
});
