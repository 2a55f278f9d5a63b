import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router-dom';
import { AppLayout } from './app-layout';
import { RequireAuth } from './require-auth';
import { RouteError } from './route-error';
import { HOME } from './screen-paths';
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
const StoriesRoute = preloadable(() => screens['/stories']().then((m) => m.StoriesRoute));
const PlayRoute = preloadable(() => screens['/play']().then((m) => m.PlayRoute));
const CreateRoute = preloadable(() => screens['/create']().then((m) => m.CreateRoute));
const ActivityRoute = preloadable(() => screens['/202402sfact']().then((m) => m.ActivityRoute));
const NotFoundRoute = preloadable(() => withStyles(import('./routes/not-found')).then((m) => m.NotFoundRoute));
const routeScreens: Record<string, { preload: () => Promise<unknown> } | undefined> = {
  '/login': LoginRoute,
  '/stories': StoriesRoute,
  '/play': PlayRoute,
  '/create': CreateRoute,
  '/202402sfact': ActivityRoute,
};

/**
 * Loads the code of the screen at `pathname` (the page's first screen: fetched beside the strings
 * instead of after the first render). main.tsx renders once it has come, so the first render shows the
 * screen itself: with React.lazy it showed the route's spinner, then the screen a render later.
 */
export function preloadScreen(pathname: string): Promise<unknown> {
  return routeScreens[pathname]?.preload() ?? Promise.resolve();
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
      { index: true, element: <Navigate to={HOME} replace /> },
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
