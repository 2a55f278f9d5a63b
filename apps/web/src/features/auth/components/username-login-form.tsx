import { LockOutlined, TagOutlined, UserOutlined } from '@ant-design/icons';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_NAME_MAX_LENGTH,
  USER_NAME_MIN_LENGTH,
  USER_NAME_PATTERN,
} from '@taleloom/contracts';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { HoldToRevealPassword } from '../../../components/hold-to-reveal-password';
import { track } from '../../../lib/analytics';
import { getErrorMessage } from '../../../lib/error-message';
import { useLoginMutation } from '../api/login';
import { useFeedback } from '../../../components/feedback';

const INVITE_CODE_MAX_LENGTH = 32;
// One message slot: a success replaces an earlier error instead of stacking under it.
const MESSAGE_KEY = 'login-result';

interface UsernameLoginValues {
  userName: string;
  password: string;
  inviteCode?: string;
}

interface UsernameLoginFormProps {
  initialInviteCode?: string;
  onSuccess: (userName: string) => void;
}

/** Username + password; a new name registers, a known one logs in. */
export function UsernameLoginForm({ initialInviteCode, onSuccess }: UsernameLoginFormProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<UsernameLoginValues>();
  const loginMutation = useLoginMutation();

  const handleFinish = (values: UsernameLoginValues) => {
    const inviteCode = values.inviteCode?.trim();
    loginMutation.mutate(
      {
        type: 'username',
        userName: values.userName.trim(),
        password: values.password,
        ...(inviteCode ? { inviteCode } : {}),
      },
      {
        onSuccess: (data) => {
          void message.success({
            key: MESSAGE_KEY,
            content: t('login.success', { name: data.userInfo?.userName ?? values.userName.trim() }),
          });
          onSuccess(data.userInfo?.userName ?? values.userName);
        },
        onError: (error) => {
          void message.error({ key: MESSAGE_KEY, content: getErrorMessage(error, t) });
        },
      },
    );
  };

  return (
    <Form<UsernameLoginValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      size="large"
      initialValues={{ inviteCode: initialInviteCode ?? '' }}
      onFinish={handleFinish}
      data-testid="username-login-form"
      className="tl-login-form"
    >
      <Form.Item
        name="userName"
        label={t('login.userName')}
        rules={[
          { required: true, whitespace: true, message: t('login.userNameRequired') },
          {
            min: USER_NAME_MIN_LENGTH,
            max: USER_NAME_MAX_LENGTH,
            message: t('login.userNameLength', { min: USER_NAME_MIN_LENGTH, max: USER_NAME_MAX_LENGTH }),
          },
          { pattern: USER_NAME_PATTERN, message: t('login.userNamePattern') },
        ]}
      >
        <Input
          prefix={<UserOutlined aria-hidden="true" />}
          placeholder={t('login.userNamePlaceholder')}
          autoComplete="username"
          maxLength={USER_NAME_MAX_LENGTH}
          data-testid="login-username-input"
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password')}
        rules={[
          { required: true, message: t('login.passwordRequired') },
          { min: PASSWORD_MIN_LENGTH, message: t('login.passwordTooShort', { min: PASSWORD_MIN_LENGTH }) },
          { max: PASSWORD_MAX_LENGTH, message: t('login.passwordTooLong', { max: PASSWORD_MAX_LENGTH }) },
        ]}
      >
        <HoldToRevealPassword
          prefix={<LockOutlined aria-hidden="true" />}
          placeholder={t('login.passwordPlaceholder', { min: PASSWORD_MIN_LENGTH })}
          revealLabel={t('login.showPassword')}
          data-testid="login-password-input"
        />
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
          onClick={() => track('invite_code_click', { method: 'username' })}
          data-testid="login-invite-input"
        />
      </Form.Item>
      <Form.Item className="tl-login-form__submit">
        <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}
          onClick={() => track('login_button_click', { method: 'username' })}
          data-testid="login-submit"
        >
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
