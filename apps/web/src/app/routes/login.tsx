import { useCallback, useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LoginCard } from '../../features/auth/components/login-card';
import { LoginHero } from '../../features/auth/components/login-hero';
import { track } from '../../lib/analytics';
import { loadAntdRestStyles } from '../../lib/antd-styles';
import { resolvePostLoginPath } from '../../lib/login-path';
import './login.css';

export { preloadFirstForm } from '../../features/auth/components/login-card';

export function LoginRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const inviteCode = searchParams.get('invite_code') ?? undefined;
  // Ant Design's styles beyond this screen's (build/antd-styles.ts), once the form is shown and the page
  // is idle: not in the way of the first screen. The other screens load it with their code (router.tsx).
  const restRequested = useRef(false);
  const loadRestStyles = useCallback(() => {
    if (restRequested.current) return;
    restRequested.current = true;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    idle(() => void loadAntdRestStyles());
  }, []);

  useEffect(() => {
    track('login_page_view');
  }, []);

  return (
    <div className="tl-login">
      <LoginHero />
      <div className="tl-login__card-wrap">
        <LoginCard
          initialInviteCode={inviteCode}
          onFormShown={loadRestStyles}
          onSuccess={(how) =>
            navigate(how === 'chosen' ? '/stories' : resolvePostLoginPath(searchParams.toString()), { replace: true })
          }
        />
      </div>
    </div>
  );
}
