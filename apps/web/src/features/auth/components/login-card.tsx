import { Card, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeLanguage } from '../../../lib/i18n';
import { PhoneLoginNotice } from './phone-login-notice';
import { UsernameLoginForm } from './username-login-form';

type LoginMethod = 'phone' | 'username';

interface LoginCardProps {
  initialInviteCode?: string;
  onSuccess: (userName: string) => void;
}

/** The login/register card with the phone and username tabs. */
export function LoginCard({ initialInviteCode, onSuccess }: LoginCardProps) {
  const { t, i18n } = useTranslation();
  const language = normalizeLanguage(i18n.language);
  const defaultMethod: LoginMethod = language === 'zh-CN' ? 'phone' : 'username';
  const [choice, setChoice] = useState<{ language: string; method: LoginMethod }>({ language, method: defaultMethod });
  // The tab resets to the language's default whenever the language changes.
  const method = choice.language === language ? choice.method : defaultMethod;
  const select = (next: LoginMethod) => setChoice({ language, method: next });

  return (
    <Card className="tl-login-card" data-testid="login-card" variant="borderless">
      <Typography.Title level={3} className="tl-login-card__title">
        {t('login.cardTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="tl-login-card__subtitle">
        {t('login.cardSubtitle')}
      </Typography.Paragraph>
      <Tabs
        activeKey={method}
        onChange={(key) => select(key as LoginMethod)}
        centered
        items={[
          {
            key: 'phone',
            label: <span data-testid="login-tab-phone">{t('login.tabPhone')}</span>,
            children: <PhoneLoginNotice onUseUsername={() => select('username')} />,
          },
          {
            key: 'username',
            label: <span data-testid="login-tab-username">{t('login.tabUsername')}</span>,
            children: <UsernameLoginForm initialInviteCode={initialInviteCode} onSuccess={onSuccess} />,
          },
        ]}
      />
    </Card>
  );
}
