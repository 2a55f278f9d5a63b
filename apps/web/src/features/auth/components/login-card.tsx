import type { LoginData, UserInfo } from '@taleloom/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { preloadable } from '../../../lib/preloadable';
import { useTranslation } from 'react-i18next';
import { track } from '../../../lib/analytics';
import { loadAntdRestStyles } from '../../../lib/antd-styles';
import { normalizeLanguage } from '../../../lib/i18n';
import { saveSession } from '../../../lib/storage';
import { UsernameLoginForm } from './username-login-form';
import { useFeedback } from '../../../components/feedback';

// The phone form (with its country-code list) and the choose-user modal load when needed, so the
// username tab (English) does not wait for them; the phone tab (Chinese) starts loading at once.
const PhoneLoginForm = preloadable(() => import('./phone-login-form').then((m) => m.PhoneLoginForm));
const loadPhoneForm = PhoneLoginForm.preload;

/** The code of the form a language's sign-in card opens on (the phone form in Chinese). */
export const preloadFirstForm = (language: string) => (normalizeLanguage(language) === 'zh-CN' ? loadPhoneForm() : Promise.resolve());
const ChooseUserModal = lazy(() => Promise.all([import('./choose-user-modal'), loadAntdRestStyles()]).then(([m]) => ({ default: m.ChooseUserModal })));

type LoginMethod = 'phone' | 'username';
const METHODS: LoginMethod[] = ['phone', 'username'];

interface LoginCardProps {
  initialInviteCode?: string;
  /** `chosen`: the user picked an identity in the choose-user modal (then the app goes to /stories). */
  onSuccess: (how: 'login' | 'chosen') => void;
  /** Called once the first form is on screen (the phone form once its chunk has come). */
  onFormShown?: () => void;
}

/** Calls `run` once, when it is committed: inside a Suspense, once what it waits for has come. */
function OnShown({ run }: { run?: () => void }) {
  useEffect(() => run?.(), [run]);
  return null;
}

/** The login/register card with the phone and username tabs, and the choose-user modal. */
export function LoginCard({ initialInviteCode, onSuccess, onFormShown }: LoginCardProps) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const language = normalizeLanguage(i18n.language);
  const defaultMethod: LoginMethod = language === 'zh-CN' ? 'phone' : 'username';
  if (defaultMethod === 'phone') void loadPhoneForm();
  const [choice, setChoice] = useState<{ language: string; method: LoginMethod }>({ language, method: defaultMethod });
  const [pending, setPending] = useState<LoginData | null>(null);
  // The tab resets to the language's default whenever the language changes.
  const method = choice.language === language ? choice.method : defaultMethod;
  const select = (next: LoginMethod) => setChoice({ language, method: next });
  const [visited, setVisited] = useState<LoginMethod[]>([]);
  if (!visited.includes(method)) setVisited([...visited, method]);
  const shown = visited.includes(method) ? visited : [...visited, method];

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
    <section className="tl-login-card" data-testid="login-card" aria-labelledby="login-card-title">
      <h2 className="tl-login-card__title" id="login-card-title">
        {t('login.cardTitle')}
      </h2>
      <p className="tl-login-card__subtitle">{t('login.cardSubtitle')}</p>
      {/* Two tabs (a tab list of two buttons: the sign-in page carries no tabs component). */}
      <div className="tl-login-tabs" role="tablist" aria-label={t('login.cardTitle')}>
        {METHODS.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`login-tab-${m}`}
            aria-selected={method === m}
            aria-controls={`login-panel-${m}`}
            tabIndex={method === m ? 0 : -1}
            className={`tl-login-tabs__tab${method === m ? ' tl-login-tabs__tab--active' : ''}`}
            onClick={() => select(m)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              const next = METHODS[(METHODS.indexOf(m) + 1) % METHODS.length];
              select(next);
              document.getElementById(`login-tab-${next}`)?.focus();
            }}
            data-testid={`login-tab-${m}`}
          >
            {m === 'phone' ? t('login.tabPhone') : t('login.tabUsername')}
          </button>
        ))}
      </div>
      {/* A form once shown stays mounted (what was typed survives switching tabs). */}
      {shown.includes('phone') ? (
        <div role="tabpanel" id="login-panel-phone" aria-labelledby="login-tab-phone" hidden={method !== 'phone'}>
          <Suspense fallback={<div className="tl-login-form__loading" />}>
            <PhoneLoginForm key={language} initialInviteCode={initialInviteCode} onSuccess={() => loggedIn('login', 'phone')} onChoose={setPending} />
            <OnShown run={onFormShown} />
          </Suspense>
        </div>
      ) : null}
      {shown.includes('username') ? (
        <div role="tabpanel" id="login-panel-username" aria-labelledby="login-tab-username" hidden={method !== 'username'}>
          <UsernameLoginForm initialInviteCode={initialInviteCode} onSuccess={() => loggedIn('login', 'username')} />
          <OnShown run={onFormShown} />
        </div>
      ) : null}
      {pending ? (
        <Suspense fallback={null}>
          <ChooseUserModal data={pending} onChoose={choose} />
        </Suspense>
      ) : null}
    </section>
  );
}
