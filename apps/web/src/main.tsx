import { startTransition, StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { i18n, i18nReady } from './lib/i18n';
import 'virtual:antd.css';
import './styles/global.css';
import { AppProviders, loadAntdLocale } from './app/providers';
import { carryOver } from './app/carry-over';
import { startFirstScreen } from './app/first-screen';
import { createAppRouter, preloadSignIn } from './app/router';

// Before anything waits: the first screen's chunk and reads travel while the strings load.
const firstScreen = startFirstScreen(window.location);

const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The sign-in screen may have come rendered already (build/prerender.ts): it stays on screen until the
// app's first render replaces it whole (its code loaded first, and rendered in a transition), and what
// was typed or pressed on it meanwhile is carried over to the app's at that commit.
const prerendered = container.hasAttribute('data-prerendered');
function TakeOver() {
  useLayoutEffect(() => {
    container!.removeAttribute('data-prerendered');
    carryOver();
  }, []);
  return null;
}

// The interface language's strings and the first screen's code come first (chunks of their own,
// fetched beside the rest): the first render shows the screen whole, not a spinner, then the screen a
// render later. Over the page rendered at build time, the sign-in form's code too.
void i18nReady
  .then(() => Promise.all([loadAntdLocale(i18n.language), firstScreen, prerendered ? preloadSignIn(i18n.language) : undefined]))
  .finally(() => {
    const root = createRoot(container);
    const app = (
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
        {prerendered && <TakeOver />}
      </StrictMode>
    );
    if (prerendered) startTransition(() => root.render(app));
    else root.render(app);
  });
