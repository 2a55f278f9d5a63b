import type { Language, SmsType } from '@taleloom/contracts';

export interface SmsMessage {
  /** E.164 */
  to: string;
  code: string;
  type: SmsType;
  language: Language;
}

/** Sends one verification code; implementations throw when the provider refuses. */
export abstract class SmsSender {
  /** True when the code may be shown to the user in development (it reached no phone). */
  abstract readonly isLocal: boolean;
  abstract send(message: SmsMessage): Promise<void>;
}

/** The text of a code message in the user's language. */
export function smsText({ code, language }: SmsMessage): string {
  return language === 'zh-CN'
    ? `【织梦故事】你的验证码是 ${code}，5 分钟内有效。请勿告诉他人。`
    : `TaleLoom: your verification code is ${code}. It expires in 5 minutes. Do not share it.`;
}
