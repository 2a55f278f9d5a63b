import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};

/** The window's inner height, kept current on resize. */
export function useWindowHeight(): number {
  return useSyncExternalStore(subscribe, () => window.innerHeight, () => 800);
}
