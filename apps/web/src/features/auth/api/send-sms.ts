import type { ApiSuccess, SendSmsData, SendSmsDto } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';

export type SendSmsBody = Omit<SendSmsDto, 'language'>;

export async function sendSms(body: SendSmsBody): Promise<SendSmsData> {
  const response = await apiClient.post<ApiSuccess<SendSmsData>>('/user/send-sms', body);
  return response.data;
}
