import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
}

/** Whether the system asks for less motion (an accessibility setting: vestibular disorders, distraction). */
export function prefersReducedMotion(): boolean {
  return media()?.matches ?? false;
}

function subscribe(changed: () => void): () => void {
  const list = media();
  if (!list) return () => undefined;
  list.addEventListener('change', changed);
  return () => list.removeEventListener('change', changed);
}

/** `prefersReducedMotion`, followed as the setting changes while the page is open. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
