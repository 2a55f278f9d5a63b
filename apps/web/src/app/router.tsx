import { lazy } from 'react';
import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router-dom';
import { AppLayout } from './app-layout';
import { RequireAuth } from './require-auth';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';

// Every screen is its own chunk.
const LoginRoute = lazy(() => import('./routes/login').then((m) => ({ default: m.LoginRoute })));
const StoriesRoute = lazy(() => import('./routes/stories').then((m) => ({ default: m.StoriesRoute })));
const PlayRoute = lazy(() => import('./routes/play').then((m) => ({ default: m.PlayRoute })));
const CreateRoute = lazy(() => import('./routes/create').then((m) => ({ default: m.CreateRoute })));
const ActivityRoute = lazy(() => import('./routes/activity-202402sf').then((m) => ({ default: m.ActivityRoute })));
const NotFoundRoute = lazy(() => import('./routes/not-found').then((m) => ({ default: m.NotFoundRoute })));

/** /i/{code}: an invitation link opens the login screen with the code filled in. */
function InviteRedirect() {
  const { code = '' } = useParams();
  return <Navigate to={`/login?invite_code=${encodeURIComponent(code)}`} replace />;
}

const handle = (titleKey: RouteHandle['titleKey']): RouteHandle => ({ titleKey });

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/stories" replace /> },
      { path: 'login', element: <LoginRoute />, handle: handle('nav.login') },
      { path: 'i/:code', element: <InviteRedirect /> },
      { path: '202402sfact', element: <ActivityRoute />, handle: handle('nav.activity') },
      {
        element: <RequireAuth />,
        children: [
          { path: 'stories', element: <StoriesRoute />, handle: handle('nav.stories') },
          { path: 'play', element: <PlayRoute />, handle: handle('nav.play') },
          { path: 'create', element: <CreateRoute />, handle: handle('nav.create') },
        ],
      },
      { path: '*', element: <NotFoundRoute />, handle: handle('nav.notFound') },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
