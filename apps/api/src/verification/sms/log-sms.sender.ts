import { Injectable, Logger } from '@nestjs/common';
import { SmsSender, type SmsMessage } from './sms-sender';

/** The default sender: writes the code to the log; no SMS leaves the machine. */
@Injectable()
export class LogSmsSender extends SmsSender {
  readonly isLocal = true;
  private readonly logger = new Logger('SMS');

  async send({ to, code, type }: SmsMessage): Promise<void> {
    // Only the last digits of the number: logs are not a phone book.
    this.logger.log(`[log sender] ${type} code for ***${to.slice(-4)}: ${code}`);
  }
}
