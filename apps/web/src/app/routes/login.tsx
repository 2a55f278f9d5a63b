import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LoginCard } from '../../features/auth/components/login-card';
import { LoginHero } from '../../features/auth/components/login-hero';
import { track } from '../../lib/analytics';
import { resolvePostLoginPath } from '../../lib/login-path';
import './login.css';

export function LoginRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const inviteCode = searchParams.get('invite_code') ?? undefined;

  useEffect(() => {
    track('login_page_view');
  }, []);

  return (
    <div className="tl-login">
      <LoginHero />
      <div className="tl-login__card-wrap">
        <LoginCard
          initialInviteCode={inviteCode}
          onSuccess={(how) =>
            navigate(how === 'chosen' ? '/stories' : resolvePostLoginPath(searchParams.toString()), { replace: true })
          }
        />
      </div>
    </div>
  );
}
