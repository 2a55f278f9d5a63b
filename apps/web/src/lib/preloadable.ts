import { createElement, type ComponentType } from 'react';

/**
 * A component whose code loads when first needed, as with React.lazy, but that renders at once when its
 * code has come: React.lazy suspends on its first render even then, and a Suspense boundary that shows
 * its fallback on the way would replace the sign-in page rendered at build time with a spinner for a
 * moment (about 0.4 s on a phone's CPU). main.tsx calls `preload()` before the app's first render there.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> & { preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let failed: unknown;
  let loading: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => (failed = error ?? new Error('the chunk failed to load')),
    ));
  function Preloadable(props: P) {
    if (failed) throw failed;
    // Not loaded yet: the nearest Suspense boundary waits for it, as for React.lazy.
    if (!loaded) throw preload();
    return createElement(loaded, props);
  }
  return Object.assign(Preloadable, { preload });
}
