import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../test/render-app';

describe('routes', () => {
  it('renders the not-found page for an unknown path', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByTestId('not-found')).toHaveTextContent('Page not found');
    expect(screen.getByTestId('top-bar')).toHaveTextContent('Page not found');
  });

  it('sends a visitor from /play to login with redirect and id', async () => {
    const { router } = renderApp('/play?id=42');
    await screen.findByTestId('login-card');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=/play&id=42');
  });

  it('redirects / to /stories, which needs a login', async () => {
    const { router } = renderApp('/');
    await screen.findByTestId('login-card');
    expect(router.state.location.search).toBe('?redirect=/stories');
  });

  it('shows the story list with its tabs, the user menu and a fresh user info when logged in', async () => {
    storeLoggedInUser();
    const fetchMock = mockFetch((url) =>
      url.startsWith('/api/user/story-list')
        ? jsonResponse({ status: 'success', message: 'ok', data: { list: [], pagination: { page: 1, pageSize: 12, hasMore: false } } })
        : jsonResponse({ status: 'success', message: 'ok', data: { ...testUser, points: 777 } }),
    );
    renderApp('/stories');
    expect(await screen.findByTestId('stories-heading', {}, { timeout: 5000 })).toHaveTextContent('Story list');
    expect(screen.getByRole('tab', { name: 'My story' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Public story' })).toBeInTheDocument();
    expect(await screen.findByText('You have no stories yet')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/user/user-info', expect.anything()));
    await waitFor(() => expect(JSON.parse(window.localStorage.getItem('userInfo')!).points).toBe(777));
    expect(document.title).toBe('Story list · TaleLoom');
  });

  it('logs out from the user menu', async () => {
    storeLoggedInUser();
    mockFetch((url) =>
      url.startsWith('/api/user/story-list')
        ? jsonResponse({ status: 'success', message: 'ok', data: { list: [], pagination: { page: 1, pageSize: 12, hasMore: false } } })
        : jsonResponse({ status: 'success', message: 'ok', data: testUser }),
    );
    const { router } = renderApp('/stories');
    fireEvent.click(await screen.findByTestId('user-menu-trigger'));
    expect(await screen.findByTestId('user-menu-name')).toHaveTextContent('alice');
    expect(screen.getByTestId('user-menu-power-value')).toHaveTextContent('12,345');
    expect(screen.getByTestId('user-menu-reset-password')).toHaveAttribute('aria-disabled', 'true');
    await act(async () => {
      fireEvent.click(screen.getByTestId('user-menu-logout'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('userInfo')).toBeNull();
  });

  it('logs out and goes to login when the user info answers 401', async () => {
    storeLoggedInUser();
    mockFetch(() => jsonResponse({ status: 'error', code: 'TOKEN_EXPIRED', message: 'expired' }, 401));
    const { router } = renderApp('/create');
    await screen.findByTestId('login-card');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=/create');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('lazy-loads the activity page without a login', async () => {
    renderApp('/202402sfact');
    expect(await screen.findByTestId('activity-screen')).toBeInTheDocument();
  });
});
