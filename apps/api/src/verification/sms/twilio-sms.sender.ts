import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SmsSender, smsText, type SmsMessage } from './sms-sender';

const TIMEOUT_MS = 10_000;

/** Twilio Programmable Messaging over its REST API (POST .../Accounts/{sid}/Messages.json). */
@Injectable()
export class TwilioSmsSender extends SmsSender {
  readonly isLocal = false;
  private readonly logger = new Logger('TwilioSms');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
  }

  async send(message: SmsMessage): Promise<void> {
    const { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token, TWILIO_FROM: from, TWILIO_API_BASE: base } =
      this.config.env;
    const form = new URLSearchParams({ To: message.to, Body: smsText(message) });
    // A Messaging Service SID picks the sender itself; otherwise From is a number.
    form.set(from!.startsWith('MG') ? 'MessagingServiceSid' : 'From', from!);
    const url = `${base.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(sid!)}/Messages.json`;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { code?: number; message?: string };
      this.logger.error(`Twilio refused a message: HTTP ${res.status} ${body.code ?? ''} ${body.message ?? ''}`);
      throw new Error(`twilio: HTTP ${res.status}`);
    }
  }
}
