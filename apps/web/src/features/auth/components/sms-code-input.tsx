import { MessageOutlined } from '@ant-design/icons';
import { SMS_CODE_LENGTH, SMS_RESEND_SECONDS, type SendSmsData } from '@taleloom/contracts';
import { Button, Input, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiClientError } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/error-message';
import { useCountdown } from '../hooks/use-countdown';
import { useFeedback } from '../../../components/feedback';

// Shown only on a development server (the code on screen): not part of the sign-in page's first load.
const Alert = lazy(() => import('antd/es/alert').then((m) => ({ default: m.default })));

interface SmsCodeInputProps {
  value?: string;
  onChange?: (value: string) => void;
  /** Checks the fields the send needs and sends; answers null when a field is not ready. */
  onSend: () => Promise<SendSmsData | null>;
  testIdPrefix: string;
}

/** The code field with its send button: disabled while sending and during the 60-second countdown. */
export function SmsCodeInput({ value, onChange, onSend, testIdPrefix }: SmsCodeInputProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [left, start] = useCountdown();
  const [sending, setSending] = useState(false);
  const [devCode, setDevCode] = useState<string | null>(null);

  const send = async () => {
    setSending(true);
    try {
      const data = await onSend();
      if (!data) return;
      start(SMS_RESEND_SECONDS);
      setDevCode(data.devCode ?? null);
      void message.success({ key: 'sms-result', content: t('phone.codeSent') });
    } catch (error) {
      // The server says how long to wait: count that down instead.
      if (isApiClientError(error) && error.code === 'SMS_RESEND_TOO_SOON' && error.params?.seconds) {
        start(Number(error.params.seconds));
      }
      const known = isApiClientError(error) && error.status < 500 && error.code !== 'UNKNOWN';
      void message.error({ key: 'sms-result', content: known ? getErrorMessage(error, t) : t('phone.sendFailed') });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Space.Compact block>
        <Input
          value={value}
          onChange={(e) => onChange?.(e.target.value.replace(/\D/g, ''))}
          prefix={<MessageOutlined aria-hidden="true" />}
          placeholder={t('phone.codePlaceholder', { length: SMS_CODE_LENGTH })}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={SMS_CODE_LENGTH}
          data-testid={`${testIdPrefix}-code-input`}
        />
        <Button
          onClick={() => void send()}
          loading={sending}
          disabled={left > 0}
          className="tl-sms-button"
          data-testid={`${testIdPrefix}-send-code`}
        >
          {left > 0 ? t('phone.resendIn', { seconds: left }) : t('phone.sendCode')}
        </Button>
      </Space.Compact>
      {devCode && (
        <Suspense fallback={null}>
          <Alert
            className="tl-dev-code"
            type="info"
            showIcon
            title={t('phone.devCode', { code: devCode })}
            data-testid={`${testIdPrefix}-dev-code`}
            data-code={devCode}
          />
        </Suspense>
      )}
    </>
  );
}
