import { render } from '@testing-library/react';
import type { UserInfo } from '@taleloom/contracts';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders, createQueryClient } from '../app/providers';
import { routes } from '../app/router';

/**
 * Renders the whole app (providers + routes) at `path` in memory. `visited` lists every location the
 * router went to (path and query), in order: a screen reached on the way (the play screen a button
 * opens) counts even when the test's fake answers then send it elsewhere.
 */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const visited: string[] = [];
  router.subscribe((state) => {
    const at = state.location.pathname + state.location.search;
    if (visited.at(-1) !== at) visited.push(at);
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, visited };
}

export const testUser: UserInfo = {
  userID: 'u1',
  userName: 'alice',
  points: 12345,
  phone: null,
  phoneCountryCode: null,
  phoneVerified: false,
  phoneVerifiedAt: null,
};

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Replaces fetch; `handler` answers each call. Returns the mock to inspect calls. */
export function mockFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const fn = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => Promise.resolve(handler(String(input), init)));
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function storeLoggedInUser(user: UserInfo = testUser, token = 'test-token') {
  window.localStorage.setItem('token', token);
  window.localStorage.setItem('userInfo', JSON.stringify(user));
}
