import { STORY_LIST_PATH, STORY_PAGE_SIZE, storyListQuery } from '../features/stories/api/get-stories';
import { buildUrl } from '../lib/api-client';
import { startEarlyReads } from '../lib/early-reads';
import { getToken } from '../lib/storage';
import { preloadScreen } from './router';
import { screenAt, SIGN_IN, SIGNED_IN } from './screen-paths';

/**
 * The reads a screen makes as it opens, by path: what main.tsx starts before the first render (see
 * early-reads.ts). Each is the URL its feature's API function asks for (first-screen.spec.ts checks).
 */
export function firstScreenReads(pathname: string, search: string): string[] {
  const reads = [buildUrl('/user/user-info')];
  const screen = screenAt(pathname);
  if (screen === '/stories') {
    // The first page of my stories (it decides the new-story button), and of the square on its tab.
    const page = (square: boolean) => buildUrl(STORY_LIST_PATH, storyListQuery({ square, pageSize: STORY_PAGE_SIZE, search: '', page: 1 }));
    reads.push(page(false));
    if (new URLSearchParams(search).get('tab') === 'square') reads.push(page(true));
  }
  if (screen === '/play') {
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

/**
 * The page's first screen: its code, and (signed in) its reads, started at once. Resolves when the code
 * of the screen the app will show has come (`/` shows /stories; signed out, a signed-in screen shows the
 * sign-in screen).
 */
export function startFirstScreen(location: Pick<Location, 'pathname' | 'search'>): Promise<unknown> {
  const token = getToken();
  if (token) startEarlyReads(firstScreenReads(location.pathname, location.search), token);
  const screen = screenAt(location.pathname);
  return preloadScreen(!token && SIGNED_IN.includes(screen) ? SIGN_IN : screen);
}
