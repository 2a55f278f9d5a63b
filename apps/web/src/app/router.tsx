import { lazy } from 'react';
import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router-dom';
import { AppLayout } from './app-layout';
import { RequireAuth } from './require-auth';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';
import { preloadable } from '../lib/preloadable';
import { loadAntdRestStyles } from '../lib/antd-styles';

// Every screen is its own chunk. Screens but the sign-in form come with Ant Design's other styles.
const withStyles = <T,>(screen: Promise<T>): Promise<T> => Promise.all([screen, loadAntdRestStyles()]).then(([m]) => m);
const screens = {
  '/login': () => import('./routes/login'),
  '/stories': () => withStyles(import('./routes/stories')),
  '/play': () => withStyles(import('./routes/play')),
  '/create': () => withStyles(import('./routes/create')),
  '/202402sfact': () => withStyles(import('./routes/activity-202402sf')),
};
const LoginRoute = preloadable(() => screens['/login']().then((m) => m.LoginRoute));

/**
 * The sign-in screen's code and that of the form it opens on in `language`, loaded: the app's first render
 * then shows the screen at once, with no loading state between (main.tsx, over the page rendered at build time).
 */
export async function preloadSignIn(language: string): Promise<void> {
  await LoginRoute.preload();
  await (await screens['/login']()).preloadFirstForm(language);
}
const StoriesRoute = lazy(() => screens['/stories']().then((m) => ({ default: m.StoriesRoute })));
const PlayRoute = lazy(() => screens['/play']().then((m) => ({ default: m.PlayRoute })));
const CreateRoute = lazy(() => screens['/create']().then((m) => ({ default: m.CreateRoute })));
const ActivityRoute = lazy(() => screens['/202402sfact']().then((m) => ({ default: m.ActivityRoute })));
const NotFoundRoute = lazy(() => withStyles(import('./routes/not-found')).then((m) => ({ default: m.NotFoundRoute })));

/**
 * Starts loading the chunk of the screen at `pathname` (the page's first screen: fetched beside the
 * strings instead of after the first render). The screen's lazy component gets the same module.
 */
export function preloadScreen(pathname: string): void {
  const load = (screens as Record<string, (() => Promise<unknown>) | undefined>)[pathname];
  void load?.().catch(() => undefined);
}

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
