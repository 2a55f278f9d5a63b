import { buildUrl } from '../lib/api-client';
import { startEarlyReads } from '../lib/early-reads';
import { getToken } from '../lib/storage';
import { preloadScreen } from './router';

/**
 * The reads a screen makes as it opens, by path: what main.tsx starts before the first render (see
 * early-reads.ts). Each is the URL its feature's API function asks for (first-screen.spec.ts checks).
 */
export function firstScreenReads(pathname: string, search: string): string[] {
  const reads = [buildUrl('/user/user-info')];
  if (pathname === '/play') {
    const id = new URLSearchParams(search).get('id');
    if (id) {
      const one = encodeURIComponent(id);
      reads.push(
        buildUrl(`/user/check-story/${one}`),
        buildUrl('/llm', { id }),
        buildUrl(`/llm/${one}/pending`),
        buildUrl(`/llm/${one}/pictures`),
        buildUrl(`/tasks/status/${one}`),
        buildUrl('/model_list'),
        buildUrl('/custom-models'),
      );
    }
  }
  return reads;
}

/** The page's first screen: its chunk, and (signed in) its reads, started at once. */
export function startFirstScreen(location: Pick<Location, 'pathname' | 'search'>): void {
  preloadScreen(location.pathname);
  const token = getToken();
  if (token) startEarlyReads(firstScreenReads(location.pathname, location.search), token);
}
