import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Lazy route chunks load slowly when every suite runs at once on two cores.
configure({ asyncUtilTimeout: 5000 });

// happy-dom lays nothing out and runs no CSS animation or transition, so no `animationend` ever
// fires. antd's motion library waits for one before it removes a closed dialog unless the DOM lacks
// the event, so the event goes: dialogs and menus then open and close at once, as without motion.
// (Motion itself is proven in real Chromium: e2e/dialogs.e2e-spec.ts.)
Reflect.deleteProperty(window, 'AnimationEvent');
Reflect.deleteProperty(globalThis, 'AnimationEvent');

// The unit tests reach no server. A request no test answers (a screen's side call: the captcha,
// country codes, analytics) fails at once as a network error, as it would offline, instead of
// connecting to whatever listens on happy-dom's default origin (localhost:3000).
interface HappyDOMWindow {
  happyDOM: { settings: { fetch: { interceptor: { beforeAsyncRequest: (context: { request: Request }) => Promise<void> } | null } } };
}
(window as unknown as HappyDOMWindow).happyDOM.settings.fetch.interceptor = {
  beforeAsyncRequest: async ({ request }) => {
    throw new TypeError(`Failed to fetch ${request.url}: no server in the unit tests`);
  },
};

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// Every test starts in English with an empty localStorage.
beforeEach(async () => {
  const { i18n } = await import('../lib/i18n');
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
