import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../features/auth/hooks/use-session';
import { buildLoginPath } from '../lib/login-path';

/** Screens below this route need a stored token; others go to /login?redirect=<path>&id=<id>. */
export function RequireAuth() {
  const { isLoggedIn } = useSession();
  const location = useLocation();
  if (!isLoggedIn) return <Navigate to={buildLoginPath(location.pathname, location.search)} replace />;
  return <Outlet />;
}
