import { MobileOutlined } from '@ant-design/icons';
import { FIRST_PHONE_BIND_POWER, PHONE_MAX_LENGTH, PHONE_MIN_LENGTH, SMS_CODE_LENGTH } from '@taleloom/contracts';
import { Form, Input, Modal, Space, Typography, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useBindMobileMutation } from '../api/bind-mobile';
import { useCountryCodesQuery } from '../api/get-country-codes';
import { sendSms } from '../api/send-sms';
import { CountryCodeSelect, defaultCountryCode } from './country-code-select';
import { SmsCodeInput } from './sms-code-input';
import { useFeedback } from '../../../components/feedback';
import { formatNumber } from '../../../lib/intl-format';

interface BindValues {
  countryCode: string;
  phoneNum: string;
  smsCode: string;
}

interface BindPhoneDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Country code (+86 for Chinese, +1 otherwise), phone, code with a 60-second countdown; confirm or cancel. */
export function BindPhoneDialog({ open, onClose }: BindPhoneDialogProps) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<BindValues>();
  const countryCodes = useCountryCodesQuery();
  const bind = useBindMobileMutation();

  const send = async () => {
    try {
      await form.validateFields(['countryCode', 'phoneNum']);
    } catch {
      return null;
    }
    const { countryCode, phoneNum } = form.getFieldsValue();
    return sendSms({ type: 'register', countryCode, phoneNum });
  };

  const submit = async () => {
    const values = await form.validateFields();
    bind.mutate(values, {
      onSuccess: (userInfo) => {
        const power = formatNumber(userInfo.points, i18n.language);
        void message.success({ key: 'sms-result', content: t('bindPhone.success', { power }) });
        form.resetFields();
        onClose();
      },
      onError: (error) => void message.error(t('bindPhone.failedWith', { reason: getErrorMessage(error, t) })),
    });
  };

  return (
    <Modal
      open={open}
      title={t('userMenu.bindPhone')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={bind.isPending}
      okButtonProps={{ 'data-testid': 'bind-confirm' } as ButtonProps}
      centered
      destroyOnHidden
      data-testid="bind-phone-dialog"
    >
      <Typography.Paragraph type="secondary">
        {t('account.bindHint', { power: formatNumber(FIRST_PHONE_BIND_POWER, i18n.language) })}
      </Typography.Paragraph>
      <Form<BindValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ countryCode: defaultCountryCode(i18n.language) }}
        preserve={false}
        name="bindPhone"
      >
        {/* The label names the number's input (antd gives it the id <form name>_<field>), not the country code's. */}
        <Form.Item label={t('phone.phoneNum')} htmlFor="bindPhone_phoneNum" required>
          <Space.Compact block>
            <Form.Item name="countryCode" noStyle rules={[{ required: true }]}>
              <CountryCodeSelect codes={countryCodes.data} loading={countryCodes.isLoading} data-testid="bind-country-code" />
            </Form.Item>
            <Form.Item
              name="phoneNum"
              noStyle
              rules={[
                { required: true, message: t('phone.phoneRequired') },
                { pattern: /^\d+$/, message: t('phone.phoneInvalid') },
                { min: PHONE_MIN_LENGTH, max: PHONE_MAX_LENGTH, message: t('phone.phoneInvalid') },
              ]}
            >
              <Input
                prefix={<MobileOutlined aria-hidden="true" />}
                placeholder={t('phone.phonePlaceholder')}
                inputMode="tel"
                maxLength={PHONE_MAX_LENGTH}
                data-testid="bind-phone-input"
              />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="smsCode"
          label={t('phone.code')}
          rules={[
            { required: true, message: t('phone.codeRequired') },
            { len: SMS_CODE_LENGTH, message: t('phone.codeLength', { length: SMS_CODE_LENGTH }) },
          ]}
        >
          <SmsCodeInput onSend={send} testIdPrefix="bind" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
