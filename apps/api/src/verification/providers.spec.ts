import { Logger } from '@nestjs/common';
import { ErrorCode } from '@taleloom/contracts';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppException } from '../common/app-exception';
import type { AppConfig } from '../config/app-config';
import { validateEnv } from '../config/env.validation';
import { TurnstileCaptchaProvider } from './captcha/turnstile-captcha.provider';
import { parsePhone } from './phone';
import { TwilioSmsSender } from './sms/twilio-sms.sender';

// Provider errors are logged on purpose; keep the test output readable.
beforeAll(() => Logger.overrideLogger(false));

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: URLSearchParams;
}

// A local stand-in for the real provider on 127.0.0.1: records the request, answers what the test says.
async function stub(answer: (seen: Seen) => [number, object]): Promise<{ server: Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const s = { method: req.method, url: req.url, headers: req.headers, body: new URLSearchParams(raw) };
      seen.push(s);
      const [status, body] = answer(s);
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const configWith = (vars: Record<string, string>) =>
  ({ env: validateEnv({ NODE_ENV: 'test', ...vars }), jwtSecret: 'x'.repeat(40) }) as unknown as AppConfig;

const SID = `AC${'a'.repeat(32)}`;

describe('TwilioSmsSender against a local stub', () => {
  it('posts the message form with basic auth to the Messages resource', async () => {
    const s = await stub(() => [201, { sid: 'SM1', status: 'queued' }]);
    try {
      const sender = new TwilioSmsSender(
        configWith({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: 'tok', TWILIO_FROM: '+15005550006', TWILIO_API_BASE: s.base }),
      );
      await sender.send({ to: '+8613800138000', code: '123456', type: 'login', language: 'zh-CN' });
      const [req] = s.seen;
      expect(req.method).toBe('POST');
      expect(req.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
      expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:tok`).toString('base64')}`);
      expect(req.body.get('To')).toBe('+8613800138000');
      expect(req.body.get('From')).toBe('+15005550006');
      expect(req.body.get('Body')).toContain('123456');
    } finally {
      s.server.close();
    }
  });

  it('throws when Twilio refuses', async () => {
    const s = await stub(() => [400, { code: 21211, message: "The 'To' number is not valid." }]);
    try {
      const sender = new TwilioSmsSender(
        configWith({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: 'tok', TWILIO_FROM: `MG${'b'.repeat(32)}`, TWILIO_API_BASE: s.base }),
      );
      await expect(sender.send({ to: '+12015550123', code: '123456', type: 'login', language: 'en' })).rejects.toThrow('HTTP 400');
      expect(s.seen[0].body.get('MessagingServiceSid')).toBe(`MG${'b'.repeat(32)}`);
    } finally {
      s.server.close();
    }
  });
});

describe('TurnstileCaptchaProvider against a local siteverify stub', () => {
  const make = (url: string) =>
    new TurnstileCaptchaProvider(
      configWith({ CAPTCHA_PROVIDER: 'turnstile', TURNSTILE_SITE_KEY: 'site', TURNSTILE_SECRET_KEY: 'secret', TURNSTILE_VERIFY_URL: url }),
    );

  it('passes a token siteverify accepts, refuses one it rejects, and sends secret, token and IP', async () => {
    const s = await stub((seen) => [200, seen.body.get('response') === 'good' ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }]);
    try {
      const provider = make(`${s.base}/siteverify`);
      expect(await provider.challenge()).toEqual({ provider: 'turnstile', siteKey: 'site', expiresInSeconds: 60 });
      expect(await provider.verify('good', undefined, '203.0.113.9')).toBe(true);
      expect(await provider.verify('bad', undefined, '203.0.113.9')).toBe(false);
      expect(s.seen[0].body.get('secret')).toBe('secret');
      expect(s.seen[0].body.get('remoteip')).toBe('203.0.113.9');
    } finally {
      s.server.close();
    }
  });

  it('fails closed with CAPTCHA_UNAVAILABLE when siteverify is down', async () => {
    const s = await stub(() => [500, {}]);
    try {
      await expect(make(`${s.base}/siteverify`).verify('good', undefined, '')).rejects.toMatchObject({ code: ErrorCode.CAPTCHA_UNAVAILABLE });
      await expect(make('http://127.0.0.1:1/siteverify').verify('good', undefined, '')).rejects.toBeInstanceOf(AppException);
    } finally {
      s.server.close();
    }
  });
});

describe('provider configuration', () => {
  it('needs the keys of a real provider and refuses test providers in production', () => {
    expect(() => validateEnv({ SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_ACCOUNT_SID is required/);
    expect(() => validateEnv({ CAPTCHA_PROVIDER: 'turnstile' })).toThrow(/TURNSTILE_SECRET_KEY is required/);
    expect(() => validateEnv({ NODE_ENV: 'production', CAPTCHA_PROVIDER: 'fixed' })).toThrow(/CAPTCHA_PROVIDER cannot be fixed/);
    expect(() => validateEnv({ NODE_ENV: 'production', SMS_PROVIDER: 'outbox' })).toThrow(/SMS_PROVIDER cannot be outbox/);
    expect(() => validateEnv({ SMS_RESEND_SECONDS: 'soon' })).toThrow(/SMS_RESEND_SECONDS/);
    const defaults = validateEnv({});
    expect([defaults.SMS_PROVIDER, defaults.CAPTCHA_PROVIDER, defaults.SMS_RESEND_SECONDS, defaults.SMS_SHOW_CODE_IN_DEV]).toEqual(['log', 'svg', 60, true]);
  });
});

describe('parsePhone', () => {
  it('normalises to E.164 and tells unknown country codes from invalid numbers', () => {
    expect(parsePhone('86', '13800138000')).toEqual({ e164: '+8613800138000', countryCode: '86', national: '13800138000' });
    expect(parsePhone('1', '2015550123').e164).toBe('+12015550123');
    expect(() => parsePhone('999', '13800138000')).toThrow(expect.objectContaining({ code: ErrorCode.COUNTRY_CODE_UNKNOWN }));
    expect(() => parsePhone('86', '1234567')).toThrow(expect.objectContaining({ code: ErrorCode.PHONE_INVALID }));
    expect(() => parsePhone('1', '201555012')).toThrow(expect.objectContaining({ code: ErrorCode.PHONE_INVALID }));
  });
});
