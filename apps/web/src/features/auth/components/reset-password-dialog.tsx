import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SMS_CODE_LENGTH, type UserInfo } from '@taleloom/contracts';
import { Form, Input, Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { HoldToRevealPassword } from '../../../components/hold-to-reveal-password';
import { getErrorMessage } from '../../../lib/error-message';
import { useResetPasswordMutation } from '../api/reset-password';
import { sendSms } from '../api/send-sms';
import { SmsCodeInput } from './sms-code-input';
import { useFeedback } from '../../../components/feedback';

interface ResetValues {
  smsCode: string;
  newPassword: string;
}

interface ResetPasswordDialogProps {
  open: boolean;
  userInfo: UserInfo | null;
  onClose: () => void;
}

/** The bound phone, a code sent to it, and the new password (at least 6 characters). */
export function ResetPasswordDialog({ open, userInfo, onClose }: ResetPasswordDialogProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<ResetValues>();
  const reset = useResetPasswordMutation();

  const submit = async () => {
    const values = await form.validateFields();
    reset.mutate(values, {
      onSuccess: () => {
        void message.success({ key: 'sms-result', content: t('resetPassword.success') });
        form.resetFields();
        onClose();
      },
      onError: (error) => void message.error(t('resetPassword.failedWith', { reason: getErrorMessage(error, t) })),
    });
  };

  return (
    <Modal
      open={open}
      title={t('userMenu.resetPassword')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      okButtonProps={{ 'data-testid': 'reset-confirm' } as ButtonProps}
      centered
      destroyOnHidden
      data-testid="reset-password-dialog"
    >
      <Form<ResetValues> form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item label={t('resetPassword.phone')}>
          <Input value={`+${userInfo?.phoneCountryCode ?? ''} ${userInfo?.phone ?? ''}`} disabled data-testid="reset-phone" />
        </Form.Item>
        <Form.Item
          name="smsCode"
          label={t('phone.code')}
          rules={[
            { required: true, message: t('phone.codeRequired') },
            { len: SMS_CODE_LENGTH, message: t('phone.codeLength', { length: SMS_CODE_LENGTH }) },
          ]}
        >
          <SmsCodeInput onSend={() => sendSms({ type: 'reset_password' })} testIdPrefix="reset" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('resetPassword.newPassword')}
          rules={[
            { required: true, message: t('resetPassword.passwordRule', { min: PASSWORD_MIN_LENGTH }) },
            { min: PASSWORD_MIN_LENGTH, message: t('resetPassword.passwordRule', { min: PASSWORD_MIN_LENGTH }) },
            { max: PASSWORD_MAX_LENGTH, message: t('login.passwordTooLong', { max: PASSWORD_MAX_LENGTH }) },
          ]}
        >
          <HoldToRevealPassword
            prefix={<LockOutlined aria-hidden="true" />}
            placeholder={t('login.passwordPlaceholder', { min: PASSWORD_MIN_LENGTH })}
            revealLabel={t('login.showPassword')}
            data-testid="reset-password-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
