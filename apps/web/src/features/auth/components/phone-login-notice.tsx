import { MobileOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

interface PhoneLoginNoticeProps {
  onUseUsername: () => void;
}

/** Phone sign-in is not ready yet: say so and offer the username tab. */
export function PhoneLoginNotice({ onUseUsername }: PhoneLoginNoticeProps) {
  const { t } = useTranslation();
  return (
    <Result
      className="tl-phone-soon"
      icon={<MobileOutlined className="tl-phone-soon__icon" aria-hidden="true" />}
      title={t('login.phoneSoonTitle')}
      subTitle={t('login.phoneSoonBody')}
      extra={
        <Button type="primary" onClick={onUseUsername} data-testid="login-use-username">
          {t('login.phoneSoonAction')}
        </Button>
      }
      data-testid="phone-login-notice"
    />
  );
}
