// The sign-in screen rendered to HTML at build time, once per language (build/prerender-sign-in.mjs runs
// it under Node with a DOM stand-in): the page shows it the moment the HTML and its style sheets have
// come, while the app's scripts still travel. It is the same tree the app renders at /login (providers,
// layout, route), so it looks the same; the app then renders over it.
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { i18n, i18nReady } from '../lib/i18n';
import { AppProviders, loadAntdLocale } from './providers';
import { routes } from './router';

const page = () => (
  <AppProviders>
    <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/login'] })} />
  </AppProviders>
);

/** The sign-in screen's markup (what goes inside #root) in `lang`. */
export async function renderSignIn(lang: string): Promise<string> {
  await i18nReady;
  await i18n.changeLanguage(lang);
  await loadAntdLocale(lang);
  // The screen and the Chinese phone form are lazily loaded chunks: a first render that waits for them
  // loads them (its markup would swap them in with inline scripts, which the page's policy refuses);
  // the second finds them loaded and writes plain markup.
  const { prelude } = await prerender(page());
  await new Response(prelude).arrayBuffer();
  return renderToString(page());
}
