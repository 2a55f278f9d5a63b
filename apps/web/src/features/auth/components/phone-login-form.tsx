import { MobileOutlined, TagOutlined } from '@ant-design/icons';
import {
  INVITE_CODE_MAX_LENGTH,
  PHONE_PATTERN,
  SMS_CODE_LENGTH,
  type LoginData,
} from '@taleloom/contracts';
import { Button, Form, Input, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { track } from '../../../lib/analytics';
import { getErrorMessage } from '../../../lib/error-message';
import { captchaQueryOptions, useCaptchaQuery } from '../api/get-captcha';
import { useCountryCodesQuery } from '../api/get-country-codes';
import { needsChoice, useLoginMutation } from '../api/login';
import { sendSms } from '../api/send-sms';
import { CaptchaField } from './captcha-field';
import { CountryCodeSelect, defaultCountryCode } from './country-code-select';
import { SmsCodeInput } from './sms-code-input';
import { useFeedback } from '../../../components/feedback';

const MESSAGE_KEY = 'login-result';

interface PhoneLoginValues {
  countryCode: string;
  phoneNum: string;
  captcha?: string;
  verifyCode: string;
  inviteCode?: string;
}

interface PhoneLoginFormProps {
  initialInviteCode?: string;
  onSuccess: (data: LoginData) => void;
  onChoose: (data: LoginData) => void;
}

/** Country code, phone, captcha, SMS code and optional invite code; a new number registers. */
export function PhoneLoginForm({ initialInviteCode, onSuccess, onChoose }: PhoneLoginFormProps) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<PhoneLoginValues>();
  const loginMutation = useLoginMutation();
  const countryCodes = useCountryCodesQuery();
  const captcha = useCaptchaQuery();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (countryCodes.isError) void message.error({ key: 'country-codes', content: t('phone.countryCodesFailed') });
  }, [countryCodes.isError, message, t]);
  useEffect(() => {
    if (captcha.isError) void message.error({ key: 'captcha', content: t('phone.captchaFailed') });
  }, [captcha.isError, message, t]);

  const send = async () => {
    // Only with a phone number (and the captcha) filled in.
    try {
      await form.validateFields(['countryCode', 'phoneNum']);
    } catch {
      return null;
    }
    // Form.Item keeps the element it was first given (and this closure with it): read the current challenge from the cache.
    const challenge = queryClient.getQueryData(captchaQueryOptions().queryKey);
    if (!challenge) {
      void message.error(t('phone.captchaFailed'));
      return null;
    }
    const { countryCode, phoneNum, captcha: answer } = form.getFieldsValue();
    // The captcha matters for sending only (it is used up by the send), so it is checked here, not on submit.
    if (challenge.provider !== 'turnstile' && !answer?.trim()) {
      form.setFields([{ name: 'captcha', errors: [t('phone.captchaRequired')] }]);
      return null;
    }
    try {
      return await sendSms({ type: 'login', countryCode, phoneNum, verifyCode: answer, captchaId: challenge.id });
    } finally {
      // Each image can be tried once.
      form.setFieldValue('captcha', '');
      void queryClient.refetchQueries({ queryKey: captchaQueryOptions().queryKey });
    }
  };

  const handleFinish = (values: PhoneLoginValues) => {
    const inviteCode = values.inviteCode?.trim();
    loginMutation.mutate(
      {
        type: 'phone',
        countryCode: values.countryCode,
        phoneNum: values.phoneNum,
        verifyCode: values.verifyCode,
        ...(inviteCode ? { inviteCode } : {}),
      },
      {
        onSuccess: (data) => {
          if (needsChoice(data)) {
            onChoose(data);
            return;
          }
          void message.success({ key: MESSAGE_KEY, content: t('login.success', { name: data.userInfo.userName }) });
          onSuccess(data);
        },
        onError: (error) => void message.error({ key: MESSAGE_KEY, content: getErrorMessage(error, t) }),
      },
    );
  };

  return (
    <Form<PhoneLoginValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      size="large"
      initialValues={{ countryCode: defaultCountryCode(i18n.language), inviteCode: initialInviteCode ?? '' }}
      onFinish={handleFinish}
      data-testid="phone-login-form"
      className="tl-login-form"
      name="phoneLogin"
    >
      {/* The label names the number's input (antd gives it the id <form name>_<field>), not the country code's. */}
      <Form.Item label={t('phone.phoneNum')} htmlFor="phoneLogin_phoneNum" required>
        <Space.Compact block>
          <Form.Item name="countryCode" noStyle rules={[{ required: true }]}>
            <CountryCodeSelect codes={countryCodes.data} loading={countryCodes.isLoading} data-testid="login-country-code" />
          </Form.Item>
          <Form.Item
            name="phoneNum"
            noStyle
            rules={[
              { required: true, message: t('phone.phoneRequired') },
              { pattern: PHONE_PATTERN, message: t('phone.phoneInvalid') },
            ]}
          >
            <Input
              prefix={<MobileOutlined aria-hidden="true" />}
              placeholder={t('phone.phonePlaceholder')}
              inputMode="tel"
              autoComplete="tel-national"
              maxLength={15}
              data-testid="login-phone-input"
            />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item name="captcha" label={t('phone.captcha')}>
        <CaptchaField challenge={captcha.data} loading={captcha.isFetching} onRefresh={() => void captcha.refetch()} />
      </Form.Item>
      <Form.Item
        name="verifyCode"
        label={t('phone.code')}
        rules={[
          { required: true, message: t('phone.codeRequired') },
          { len: SMS_CODE_LENGTH, message: t('phone.codeLength', { length: SMS_CODE_LENGTH }) },
        ]}
      >
        <SmsCodeInput onSend={send} testIdPrefix="login" />
      </Form.Item>
      <Form.Item
        name="inviteCode"
        label={t('login.inviteCode')}
        extra={t('login.inviteCodeHint')}
        rules={[{ max: INVITE_CODE_MAX_LENGTH, message: t('login.inviteCodeTooLong', { max: INVITE_CODE_MAX_LENGTH }) }]}
      >
        <Input
          prefix={<TagOutlined aria-hidden="true" />}
          placeholder={t('login.inviteCodePlaceholder')}
          autoComplete="off"
          onClick={() => track('invite_code_click', { method: 'phone' })}
          data-testid="phone-invite-input"
        />
      </Form.Item>
      <Form.Item className="tl-login-form__submit">
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={loginMutation.isPending}
          onClick={() => track('login_button_click', { method: 'phone' })}
          data-testid="phone-login-submit"
        >
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
