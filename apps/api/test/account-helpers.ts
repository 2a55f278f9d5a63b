import type { LoginDto, SendSmsDto } from '@taleloom/contracts';
import request from 'supertest';
import { PhoneRewardsService } from '../src/auth/phone-rewards.service';
import { Clock } from '../src/verification/clock';
import { OutboxSmsSender } from '../src/verification/sms/outbox-sms.sender';
import { SmsSender } from '../src/verification/sms/sms-sender';
import { createTestApp, type TestApp } from './test-app';

export const FIXED_CAPTCHA = 'TEST';

/** The app with the in-memory SMS outbox and a captcha whose answer is known. */
export async function createAccountsApp(overrides: Record<string, string> = {}, options: Parameters<typeof createTestApp>[1] = {}) {
  const t = await createTestApp({ SMS_PROVIDER: 'outbox', CAPTCHA_PROVIDER: 'fixed', CAPTCHA_FIXED_ANSWER: FIXED_CAPTCHA, ...overrides }, options);
  const outbox = t.app.get(SmsSender) as OutboxSmsSender;
  const clock = t.app.get(Clock);
  const http = () => request(t.app.getHttpServer());
  return { t, outbox, clock, http, rewards: t.app.get(PhoneRewardsService), ...actions(t, outbox) };
}

function actions(t: TestApp, outbox: OutboxSmsSender) {
  const http = () => request(t.app.getHttpServer());
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function captcha(): Promise<string> {
    const res = await http().get('/api/captcha');
    if (res.status !== 200) throw new Error(`captcha: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  }

  /** Passes the captcha and sends a login code; answers the HTTP response. */
  async function sendLoginCode(phoneNum: string, countryCode = '86') {
    const captchaId = await captcha();
    return http()
      .post('/api/user/send-sms')
      .send({ type: 'login', phoneNum, countryCode, verifyCode: FIXED_CAPTCHA, captchaId } satisfies SendSmsDto);
  }

  /** Sends a code and signs in with it; answers the login response. */
  async function phoneLogin(phoneNum: string, countryCode = '86', inviteCode?: string) {
    const sent = await sendLoginCode(phoneNum, countryCode);
    if (sent.status !== 200) throw new Error(`send-sms: ${sent.status} ${JSON.stringify(sent.body)}`);
    const verifyCode = outbox.lastCode(`+${countryCode}${phoneNum}`)!;
    return http()
      .post('/api/user/login')
      .send({ type: 'phone', phoneNum, countryCode, verifyCode, ...(inviteCode ? { inviteCode } : {}) } satisfies LoginDto);
  }

  async function registerName(userName: string, password = 'secret1', inviteCode?: string) {
    const res = await http()
      .post('/api/user/login')
      .send({ type: 'username', userName, password, ...(inviteCode ? { inviteCode } : {}) } satisfies LoginDto);
    if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.data.token as string, userID: res.body.data.userInfo.userID as string };
  }

  async function sendBindCode(token: string, phoneNum: string, countryCode = '86') {
    return http()
      .post('/api/user/send-sms')
      .set(bearer(token))
      .send({ type: 'register', phoneNum, countryCode } satisfies SendSmsDto);
  }

  async function userInfo(token: string) {
    return http().get('/api/user/user-info').set(bearer(token));
  }

  return { captcha, sendLoginCode, phoneLogin, registerName, sendBindCode, userInfo, bearer };
}
