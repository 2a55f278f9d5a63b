import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { PASSWORD_MIN_LENGTH } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, testUser } from '../../../test/render-app';

function fill(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

describe('username login', () => {
  it('shows a validation message for a too-short password and calls no API', async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderApp('/login');
    await screen.findByTestId('login-card');

    fill('login-username-input', 'alice');
    fill('login-password-input', '12345');
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-submit'));
    });

    expect(
      await screen.findByText(`The password must be at least ${PASSWORD_MIN_LENGTH} characters`),
    ).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/user/login'))).toHaveLength(0);
  });

  it('posts the username body, stores the session and follows redirect + id', async () => {
    const fetchMock = mockFetch((url) => {
      if (url.includes('/user/login')) {
        return jsonResponse({ status: 'success', message: 'ok', data: { token: 'new.jwt.token', userInfo: testUser } });
      }
      // /play opens story 42, which this user owns.
      if (url.includes('/user/check-story/42')) {
        return jsonResponse({ status: 'success', message: 'ok', data: { userHasStory: true, isPublic: false, originUserID: 'u1' } });
      }
      if (url.startsWith('/api/llm?id=42')) {
        const story = { id: '42', name: 'Mine', main_text: 'Once.', level: 0, clonedFrom: null, permission: '0', isOwner: true };
        return jsonResponse({ status: 'success', message: 'ok', data: story });
      }
      return jsonResponse({ status: 'success', message: 'ok', data: testUser });
    });
    const { router } = renderApp('/login?redirect=/play&id=42&invite_code=FRIEND1');
    await screen.findByTestId('login-card');
    expect(screen.getByTestId('login-invite-input')).toHaveValue('FRIEND1');

    fill('login-username-input', 'alice');
    fill('login-password-input', 'secret1');
    // The welcome message lasts 3 seconds, which a loaded machine can spend before a look at the page:
    // every change of the page from the press on is watched for it.
    let welcomed = false;
    const observer = new MutationObserver(() => {
      welcomed ||= document.body.textContent?.includes('Welcome, alice!') ?? false;
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-submit'));
    });

    await waitFor(() => expect(welcomed).toBe(true));
    observer.disconnect();
    await waitFor(() => expect(router.state.location.pathname).toBe('/play'));
    expect(router.state.location.search).toBe('?id=42');
    const loginCall = fetchMock.mock.calls.find(([url]) => String(url) === '/api/user/login')!;
    expect(loginCall[1]!.method).toBe('POST');
    expect(JSON.parse(String(loginCall[1]!.body))).toEqual({
      type: 'username',
      userName: 'alice',
      password: 'secret1',
      inviteCode: 'FRIEND1',
      language: 'en',
    });
    expect(window.localStorage.getItem('token')).toBe('new.jwt.token');
    expect(JSON.parse(window.localStorage.getItem('userInfo')!)).toMatchObject({ userName: 'alice' });
    expect(await screen.findByTestId('play-title', {}, { timeout: 5000 })).toHaveTextContent('Mine');
    expect(router.state.location.pathname).toBe('/play');
  });

  it('shows the translated error code when login fails', async () => {
    mockFetch(() => jsonResponse({ status: 'error', code: 'WRONG_PASSWORD', message: 'server text' }, 401));
    const { router } = renderApp('/login');
    await screen.findByTestId('login-card');
    fill('login-username-input', 'alice');
    fill('login-password-input', 'wrong-one');
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-submit'));
    });
    expect(await screen.findByText('Wrong username or password.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('defaults to the phone tab in Chinese, with the username tab one click away', async () => {
    mockFetch(() => jsonResponse({ status: 'success', message: 'ok', data: {} }));
    const { i18n } = await import('../../../lib/i18n');
    await i18n.changeLanguage('zh-CN');
    renderApp('/login');
    expect(await screen.findByTestId('phone-login-form')).toBeVisible();
    expect(screen.queryByTestId('login-username-input')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-tab-username'));
    });
    expect(await screen.findByTestId('login-username-input')).toBeVisible();
  });
});
