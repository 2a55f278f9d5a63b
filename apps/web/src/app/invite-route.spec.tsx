import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp } from '../test/render-app';

describe('/i/:code', () => {
  it('opens the login screen with the invite code filled in', async () => {
    mockFetch(() => jsonResponse({ status: 'success', message: 'ok', data: {} }));
    const { router } = renderApp('/i/ab3kq7xz');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?invite_code=ab3kq7xz');
    expect(await screen.findByTestId('login-invite-input')).toHaveValue('ab3kq7xz');
  });
});
