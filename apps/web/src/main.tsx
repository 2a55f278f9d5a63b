import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { i18n, i18nReady } from './lib/i18n';
import 'virtual:antd.css';
import './styles/global.css';
import { AppProviders, loadAntdLocale } from './app/providers';
import { startFirstScreen } from './app/first-screen';
import { createAppRouter } from './app/router';

// Before anything waits: the first screen's chunk and reads travel while the strings load.
startFirstScreen(window.location);

const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// The interface language's strings come first (chunks of their own, fetched beside the rest).
void i18nReady.then(() => loadAntdLocale(i18n.language)).finally(() =>
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
