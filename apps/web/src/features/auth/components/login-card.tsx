import type { LoginData, UserInfo } from '@taleloom/contracts';
import { App, Card, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { track } from '../../../lib/analytics';
import { normalizeLanguage } from '../../../lib/i18n';
import { saveSession } from '../../../lib/storage';
import { ChooseUserModal } from './choose-user-modal';
import { PhoneLoginForm } from './phone-login-form';
import { UsernameLoginForm } from './username-login-form';

type LoginMethod = 'phone' | 'username';

interface LoginCardProps {
  initialInviteCode?: string;
  /** `chosen`: the user picked an identity in the choose-user modal (then the app goes to /stories). */
  onSuccess: (how: 'login' | 'chosen') => void;
}

/** The login/register card with the phone and username tabs, and the choose-user modal. */
export function LoginCard({ initialInviteCode, onSuccess }: LoginCardProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const language = normalizeLanguage(i18n.language);
  const defaultMethod: LoginMethod = language === 'zh-CN' ? 'phone' : 'username';
  const [choice, setChoice] = useState<{ language: string; method: LoginMethod }>({ language, method: defaultMethod });
  const [pending, setPending] = useState<LoginData | null>(null);
  // The tab resets to the language's default whenever the language changes.
  const method = choice.language === language ? choice.method : defaultMethod;
  const select = (next: LoginMethod) => setChoice({ language, method: next });

  const loggedIn = (how: 'login' | 'chosen', via: LoginMethod) => {
    track('login_success', { method: via });
    onSuccess(how);
  };

  const choose = (token: string, userInfo: UserInfo) => {
    saveSession(token, userInfo);
    setPending(null);
    void message.success({ key: 'login-result', content: t('login.success', { name: userInfo.userName }) });
    loggedIn('chosen', 'phone');
  };

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
        destroyOnHidden={false}
        items={[
          {
            key: 'phone',
            label: <span data-testid="login-tab-phone">{t('login.tabPhone')}</span>,
            children: (
              <PhoneLoginForm
                key={language}
                initialInviteCode={initialInviteCode}
                onSuccess={() => loggedIn('login', 'phone')}
                onChoose={setPending}
              />
            ),
          },
          {
            key: 'username',
            label: <span data-testid="login-tab-username">{t('login.tabUsername')}</span>,
            children: <UsernameLoginForm initialInviteCode={initialInviteCode} onSuccess={() => loggedIn('login', 'username')} />,
          },
        ]}
      />
      <ChooseUserModal data={pending} onChoose={choose} />
    </Card>
  );
}
