import { Injectable } from '@nestjs/common';
import { SmsSender, type SmsMessage } from './sms-sender';

/** Tests only: keeps every message in memory so a test can read the code it was sent. */
@Injectable()
export class OutboxSmsSender extends SmsSender {
  readonly isLocal = false;
  readonly messages: SmsMessage[] = [];
  /** Test hook: makes the next sends fail like a provider outage. */
  failing = false;

  async send(message: SmsMessage): Promise<void> {
    if (this.failing) throw new Error('outbox: provider down (test)');
    this.messages.push(message);
  }

  /** The latest code sent to `to` (E.164). */
  lastCode(to: string): string | undefined {
    return [...this.messages].reverse().find((m) => m.to === to)?.code;
  }

  clear(): void {
    this.messages.length = 0;
    this.failing = false;
  }
}
