import { render } from '@testing-library/react';
import type { UserInfo } from '@taleloom/contracts';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { AppProviders, createQueryClient } from '../app/providers';
import { routes } from '../app/router';

/** Renders the whole app (providers + routes) at `path` in memory. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
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
