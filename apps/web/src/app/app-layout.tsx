import { AppstoreOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigate } from 'react-router-dom';
import { LanguageMenu } from '../components/language-menu';
import { lazyDialog } from '../components/lazy-dialog';
import { TopBar } from '../components/top-bar';
import { useSession } from '../features/auth/hooks/use-session';
import { GET_POWER_EVENT } from '../lib/get-power';
import { setUnauthorizedHandler } from '../lib/api-client';
import { buildLoginPath } from '../lib/login-path';
import { GetPowerDialog } from './get-power-dialog';
import { isRouteHandle } from './route-handle';

// The story square is the public tab of /stories (the stories feature reads `tab`).
const SQUARE_TAB_QUERY = 'tab=square';

// Chunks of their own, so the first screen (often /login) does not carry them: the user menu (signed
// in only) and the power dialogs (loaded when first opened, then kept mounted: lazyDialog).
const UserMenu = lazy(() => import('../features/auth/components/user-menu').then((m) => ({ default: m.UserMenu })));
const PowerDetailsDialog = lazyDialog(() => import('../features/power/components/power-details-dialog').then((m) => m.PowerDetailsDialog));

/** Every screen: the top bar, then the lazily loaded route. */
export function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const matches = useMatches();
  const { isLoggedIn, userInfo } = useSession();
  const [powerDetailsOpen, setPowerDetailsOpen] = useState(false);
  const userMenuActions = useMemo(() => ({ powerDetails: () => setPowerDetailsOpen(true) }), []);
  // "Not enough power, please get power": any screen may ask for the get-power dialog (lib/get-power.ts).
  const [getPowerOpen, setGetPowerOpen] = useState(false);
  useEffect(() => {
    const open = () => setGetPowerOpen(true);
    window.addEventListener(GET_POWER_EVENT, open);
    return () => window.removeEventListener(GET_POWER_EVENT, open);
  }, []);

  const handle = [...matches].reverse().find((match) => isRouteHandle(match.handle))?.handle;
  const current = isRouteHandle(handle) ? t(handle.titleKey) : undefined;
  const onLogin = location.pathname === '/login';

  useEffect(() => {
    const brand = t('app.brand');
    document.title = current ? t('app.pageTitle', { page: current, brand }) : brand;
  }, [current, t]);

  // Any 401 from the API client lands here: the session is already cleared, so go log in again.
  const locationRef = useRef(location);
  useEffect(() => {
    locationRef.current = location;
  }, [location]);
  useEffect(() => {
    setUnauthorizedHandler(() => {
      const { pathname, search } = locationRef.current;
      if (pathname !== '/login') void navigate(buildLoginPath(pathname, search), { replace: true });
    });
    return () => setUnauthorizedHandler(null);
  }, [navigate]);

  const actions = (
    <>
      {!onLogin && (
        <Button
          type="text"
          icon={<AppstoreOutlined aria-hidden="true" />}
          className="tl-topbar__button"
          onClick={() => navigate(`/stories?${SQUARE_TAB_QUERY}`)}
          aria-label={t('topBar.storySquare')}
          title={t('topBar.storySquare')}
          data-testid="story-square-button"
        >
          <span className="tl-topbar__label">{t('topBar.storySquare')}</span>
        </Button>
      )}
      <LanguageMenu />
      {isLoggedIn && !onLogin && (
        <Suspense fallback={<span className="tl-topbar__user-placeholder" aria-hidden="true" />}>
          <UserMenu userInfo={userInfo} actions={userMenuActions} />
        </Suspense>
      )}
    </>
  );

  return (
    <div className="tl-app">
      {/* A new page starts at its top; back and forward return to where the reader was. */}
      <ScrollRestoration />
      <TopBar current={current} actions={actions} />
      <main className="tl-main">
        <Suspense
          fallback={
            <div className="tl-route-loading" data-testid="route-loading">
              <Spin size="large" description={t('app.loading')} />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      {isLoggedIn && <PowerDetailsDialog open={powerDetailsOpen} onClose={() => setPowerDetailsOpen(false)} />}
      {isLoggedIn && <GetPowerDialog open={getPowerOpen} onClose={() => setGetPowerOpen(false)} />}
    </div>
  );
}
