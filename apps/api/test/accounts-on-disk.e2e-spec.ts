import type { INestApplication } from '@nestjs/common';
import { ErrorCode, type BindMobileDto, type LoginDto, type ResetPasswordDto, type SendSmsDto } from '@taleloom/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { DatabaseHandle } from '../src/database/embedded-database';
import { OutboxSmsSender } from '../src/verification/sms/outbox-sms.sender';
import { SmsSender } from '../src/verification/sms/sms-sender';
import { createDiskApp, startDiskStandIn } from './support/start-disk-stand-in';

// `pnpm start` with no MONGODB_URI offline runs the stand-in ON DISK, which keeps Dates and ObjectIds as
// strings and does not apply concurrent writes atomically: the once-only rules must hold there too.
describe('account rules on the embedded stand-in on disk', () => {
  let dir: string;
  let database: DatabaseHandle;
  let app: INestApplication;
  let outbox: OutboxSmsSender;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'taleloom-disk-'));
    database = await startDiskStandIn(join(dir, 'db'));
    app = await createDiskApp(database, dir, {
      SMS_PROVIDER: 'outbox',
      CAPTCHA_PROVIDER: 'fixed',
      CAPTCHA_FIXED_ANSWER: 'TEST',
      SMS_RESEND_SECONDS: '1',
    });
    outbox = app.get(SmsSender) as OutboxSmsSender;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs up by phone once under 20 concurrent logins, binds once under 20 concurrent binds, and reset refuses old tokens', async () => {
    const captchaId = (await http().get('/api/captcha')).body.data.id;
    const sent = await http()
      .post('/api/user/send-sms')
      .send({ type: 'login', phoneNum: '13800138000', countryCode: '86', verifyCode: 'TEST', captchaId } satisfies SendSmsDto);
    expect(sent.status).toBe(200);
    const verifyCode = outbox.lastCode('+8613800138000')!;
    const logins = await Promise.all(
      Array.from({ length: 20 }, () =>
        http().post('/api/user/login').send({ type: 'phone', phoneNum: '13800138000', countryCode: '86', verifyCode } satisfies LoginDto),
      ),
    );
    expect(logins.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
    expect(logins.find((r) => r.status === 200)!.body.data.userInfo.points).toBe(100000);

    const named = await http().post('/api/user/login').send({ type: 'username', userName: 'disk', password: 'secret1' } satisfies LoginDto);
    const token = named.body.data.token as string;
    const auth = { Authorization: `Bearer ${token}` };
    await http().post('/api/user/send-sms').set(auth).send({ type: 'register', phoneNum: '2015550123', countryCode: '1' } satisfies SendSmsDto);
    const smsCode = outbox.lastCode('+12015550123')!;
    const binds = await Promise.all(
      Array.from({ length: 20 }, () =>
        http().post('/api/user/bind-mobile').set(auth).send({ phoneNum: '2015550123', countryCode: '1', smsCode } satisfies BindMobileDto),
      ),
    );
    expect(binds.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
    expect((await http().get('/api/user/user-info').set(auth)).body.data.points).toBe(100000);

    await new Promise((r) => setTimeout(r, 1100));
    await http().post('/api/user/send-sms').set(auth).send({ type: 'reset_password' } satisfies SendSmsDto);
    const reset = await http()
      .post('/api/user/reset-password')
      .set(auth)
      .send({ smsCode: outbox.lastCode('+12015550123')!, newPassword: 'newpass1' } satisfies ResetPasswordDto);
    expect(reset.status).toBe(200);
    const old = await http().get('/api/user/user-info').set(auth);
    expect([old.status, old.body.code]).toEqual([401, ErrorCode.TOKEN_INVALID]);
    expect((await http().get('/api/user/user-info').set({ Authorization: `Bearer ${reset.body.data.token}` })).status).toBe(200);
  });
});
