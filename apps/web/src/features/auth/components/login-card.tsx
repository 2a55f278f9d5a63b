import type { LoginData, UserInfo } from '@taleloom/contracts';
import { App, Card, Tabs } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { track } from '../../../lib/analytics';
import { normalizeLanguage } from '../../../lib/i18n';
import { saveSession } from '../../../lib/storage';
import { UsernameLoginForm } from './username-login-form';

// The phone form (with its country-code list) and the choose-user modal load when needed, so the
// username tab (English) does not wait for them; the phone tab (Chinese) starts loading at once.
const loadPhoneForm = () => import('./phone-login-form').then((m) => ({ default: m.PhoneLoginForm }));
const PhoneLoginForm = lazy(loadPhoneForm);
const ChooseUserModal = lazy(() => import('./choose-user-modal').then((m) => ({ default: m.ChooseUserModal })));

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
  if (defaultMethod === 'phone') void loadPhoneForm();
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
      <h2 className="tl-login-card__title">{t('login.cardTitle')}</h2>
      <p className="tl-login-card__subtitle">{t('login.cardSubtitle')}</p>
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
              <Suspense fallback={<div className="tl-login-form__loading" />}>
                <PhoneLoginForm
                  key={language}
                  initialInviteCode={initialInviteCode}
                  onSuccess={() => loggedIn('login', 'phone')}
                  onChoose={setPending}
                />
              </Suspense>
            ),
          },
          {
            key: 'username',
            label: <span data-testid="login-tab-username">{t('login.tabUsername')}</span>,
            children: <UsernameLoginForm initialInviteCode={initialInviteCode} onSuccess={() => loggedIn('login', 'username')} />,
          },
        ]}
      />
      {pending ? (
        <Suspense fallback={null}>
          <ChooseUserModal data={pending} onChoose={choose} />
        </Suspense>
      ) : null}
    </Card>
  );
}
