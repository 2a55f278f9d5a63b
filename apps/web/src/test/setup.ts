import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Lazy route chunks load slowly when every suite runs at once on two cores.
configure({ asyncUtilTimeout: 5000 });

// antd reads these browser APIs, which jsdom lacks.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
}

// jsdom does not implement pseudo-element styles; antd asks for them when measuring scrollbars.
const originalGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element, pseudoElement?: string | null) =>
  originalGetComputedStyle(element, pseudoElement ? undefined : pseudoElement);

// jsdom cannot parse some CSS that antd generates at run time; that noise says nothing about the app.
type JsdomError = Error & { type?: string };
interface JsdomVirtualConsole {
  removeAllListeners(event: string): void;
  on(event: string, listener: (error: JsdomError) => void): void;
}
const virtualConsole = (window as unknown as { _virtualConsole?: JsdomVirtualConsole })._virtualConsole;
if (virtualConsole) {
  virtualConsole.removeAllListeners('jsdomError');
  virtualConsole.on('jsdomError', (error: JsdomError) => {
    if (error.type !== 'css-parsing') console.error(error);
  });
}

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
