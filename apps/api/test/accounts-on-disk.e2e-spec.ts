import type { INestApplication } from '@nestjs/common';
import { ErrorCode, type BindMobileDto, type LoginDto, type ResetPasswordDto, type SendSmsDto } from '@taleloom/contracts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../src/app.factory';
import { resolveConfig } from '../src/config/app-config';
import { validateEnv } from '../src/config/env.validation';
import type { DatabaseHandle } from '../src/database/embedded-database';
import { OutboxSmsSender } from '../src/verification/sms/outbox-sms.sender';
import { SmsSender } from '../src/verification/sms/sms-sender';
import { TEST_JWT_SECRET } from './test-app';

// `pnpm start` with no MONGODB_URI offline runs the stand-in ON DISK, which keeps Dates and ObjectIds as
// strings and does not apply concurrent writes atomically: the once-only rules must hold there too.
describe('account rules on the embedded stand-in on disk', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let database: DatabaseHandle;
  let app: INestApplication;
  let outbox: OutboxSmsSender;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'taleloom-disk-'));
    // The stand-in is ESM-only and cannot start inside a jest worker: a child process runs it.
    server = spawn(process.execPath, ['-r', '@swc-node/register', 'test/support/disk-stand-in.ts', join(dir, 'db')], {
      cwd: join(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const uri = await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /^URI (\S+)$/m.exec(out);
        if (match) resolve(match[1]);
      });
      server!.once('exit', (code) => reject(new Error(`stand-in exited with ${code}`)));
    });
    // As startDatabase answers for the stand-in with a data folder.
    database = { uri, kind: 'stand-in', writesNotAtomic: true, stop: async () => void server?.kill() };
    const env = validateEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      JWT_SECRET: TEST_JWT_SECRET,
      WEB_DIST_DIR: join(tmpdir(), 'no-web-dist'),
      SMS_PROVIDER: 'outbox',
      CAPTCHA_PROVIDER: 'fixed',
      CAPTCHA_FIXED_ANSWER: 'TEST',
      SMS_RESEND_SECONDS: '1',
    });
    app = await createApp(resolveConfig(env), database);
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
