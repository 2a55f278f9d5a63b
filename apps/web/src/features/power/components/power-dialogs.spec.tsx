import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PointsPage } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';
import { requestGetPower } from '../../../lib/get-power';
import { POWER_DIALOG_CLOSED_AT_KEY, shouldAutoOpen } from '../hooks/use-daily-power-dialog';

const ok = (data: unknown) => jsonResponse({ status: 'success', message: 'ok', data });
const HOUR = 3600_000;

interface ServerState {
  checkedIn: boolean;
  /** The check-in answers this status with no coded body (a proxy's error page). */
  checkInFails?: number;
  points: number;
  pages?: Record<string, PointsPage>;
  /** My stories (the publish picker's list): id, name and whether public. */
  stories?: { id: string; name: string; permission: '0' | '1' }[];
}

// A tiny stand-in for the power endpoints and user-info.
function mockPowerApi(state: ServerState) {
  return mockFetch((url, init) => {
    if (url.startsWith('/api/user/check-in-status')) return ok({ dailyCheckinStatus: state.checkedIn });
    if (url.startsWith('/api/user/check-in') && init.method === 'POST') {
      if (state.checkInFails) return new Response('Bad gateway', { status: state.checkInFails });
      if (state.checkedIn) {
        return jsonResponse({ status: 'error', code: 'ALREADY_CHECKED_IN', message: 'already' }, 409);
      }
      state.checkedIn = true;
      state.points += 5000;
      return ok({ awarded: 5000, points: state.points });
    }
    if (url.startsWith('/api/user/user-points')) {
      const params = new URL(url, 'http://x').searchParams;
      const key = `${params.get('type')}:${params.get('page')}`;
      return ok(state.pages?.[key] ?? { records: [], pagination: { page: 1, pageSize: 10, total: 0, totalPages: 0 } });
    }
    if (url.startsWith('/api/user/user-info')) return ok({ ...testUser, points: state.points });
    if (url.startsWith('/api/user/story-list') && !url.includes('public=true')) {
      const list = (state.stories ?? []).map((s) => ({ ...s, level: 0, clonedFrom: null, storyNo: 1, time: 1, userID: testUser.userID, pinToTop: false, recovery_point: false, 'first-line': 'Once.', 'last-line': 'The end.' }));
      return ok({ list, pagination: { page: 1, pageSize: 50, hasMore: false } });
    }
    const publish = /^\/api\/user\/public\/(\w+)$/.exec(url);
    if (publish && init.method === 'POST') {
      const story = state.stories!.find((s) => s.id === publish[1])!;
      story.permission = '1';
      return ok({ ...story, level: 0, clonedFrom: null, storyNo: 1, time: 1, userID: testUser.userID, pinToTop: false, recovery_point: false });
    }
    return jsonResponse({ status: 'error', code: 'ROUTE_NOT_FOUND', message: 'no' }, 404);
  });
}

describe('shouldAutoOpen', () => {
  const now = Date.UTC(2026, 0, 1, 12);
  it('opens when not checked in and not closed in the last 8 hours', () => {
    expect(shouldAutoOpen(false, null, now)).toBe(true);
    expect(shouldAutoOpen(false, now - 8 * HOUR, now)).toBe(true);
    expect(shouldAutoOpen(false, now - 8 * HOUR + 1, now)).toBe(false);
    expect(shouldAutoOpen(true, null, now)).toBe(false);
  });
});

describe('the get-power dialog on the stories screen', () => {
  it('opens by itself when the user has not checked in today, checks in and refreshes the balance', async () => {
    storeLoggedInUser({ ...testUser, points: 100 });
    const state: ServerState = { checkedIn: false, points: 100 };
    const fetchMock = mockPowerApi(state);
    renderApp('/stories');
    const dialog = await screen.findByTestId('power-dialog', {}, { timeout: 5000 });
    expect(within(dialog).getByText('10% of the power', { exact: false })).toBeInTheDocument();
    // The publish button is the stories feature's picker, a chunk of its own: it may render a moment after the dialog.
    expect(await within(dialog).findByTestId('power-publish')).toBeEnabled();
    const button = within(dialog).getByTestId('power-check-in');
    await waitFor(() => expect(button).toBeEnabled());

    await act(async () => {
      fireEvent.click(button);
    });
    expect(await screen.findByText('Checked in: +5,000 power')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByTestId('power-check-in')).toBeDisabled());
    expect(within(dialog).getByText('Checked in today')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/user/check-in' && init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ language: 'en' });
    // The user menu's balance follows the fresh user info.
    await waitFor(() => expect(JSON.parse(window.localStorage.getItem('userInfo')!).points).toBe(5100));
  });

  it('stays closed when closed within the last 8 hours, and the get-power button opens it', async () => {
    storeLoggedInUser();
    window.localStorage.setItem(POWER_DIALOG_CLOSED_AT_KEY, String(Date.now() - 7 * HOUR));
    const fetchMock = mockPowerApi({ checkedIn: false, points: 0 });
    renderApp('/stories');
    await screen.findByTestId('stories-heading');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/user/check-in-status')).toBe(true));
    expect(screen.queryByTestId('power-dialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('stories-get-power'));
    expect(await screen.findByTestId('power-dialog')).toBeInTheDocument();
  });

  it('remembers when it was closed', async () => {
    storeLoggedInUser();
    mockPowerApi({ checkedIn: false, points: 0 });
    renderApp('/stories');
    await screen.findByTestId('power-dialog', {}, { timeout: 5000 });
    const before = Date.now();
    fireEvent.click(screen.getByRole('button', { name: /close/i }));
    expect(Number(window.localStorage.getItem(POWER_DIALOG_CLOSED_AT_KEY))).toBeGreaterThanOrEqual(before);
  });

  it('its publish button lists my stories that are not public yet and publishes the one picked, after the play screen\'s confirmation', async () => {
    storeLoggedInUser();
    const a = 'a'.repeat(24);
    const state: ServerState = { checkedIn: true, points: 0, stories: [{ id: a, name: 'The Pier', permission: '0' }, { id: 'b'.repeat(24), name: 'Already out', permission: '1' }] };
    const fetchMock = mockPowerApi(state);
    renderApp('/stories');
    fireEvent.click(await screen.findByTestId('stories-get-power', {}, { timeout: 5000 }));
    fireEvent.click(await screen.findByTestId('power-publish'));
    const pick = await screen.findByTestId('publish-pick');
    await waitFor(() => expect(within(pick).getAllByTestId('publish-pick-item')).toHaveLength(1));
    expect(pick).toHaveTextContent('The Pier');
    expect(pick).not.toHaveTextContent('Already out');
    fireEvent.click(within(pick).getByTestId('publish-pick-item'));
    expect((await screen.findAllByText('Publish this story?')).length).toBeGreaterThan(0);
    await act(async () => fireEvent.click(await screen.findByTestId('publish-pick-confirm')));
    expect(await screen.findByText('Published to the story square')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url, init]) => url === `/api/user/public/${a}` && init?.method === 'POST')).toBe(true);
  });

  it('its publish button, with no private story, leads to creating one', async () => {
    storeLoggedInUser();
    mockPowerApi({ checkedIn: true, points: 0, stories: [] });
    const { visited } = renderApp('/stories');
    fireEvent.click(await screen.findByTestId('stories-get-power', {}, { timeout: 5000 }));
    fireEvent.click(await screen.findByTestId('power-publish'));
    fireEvent.click(await screen.findByTestId('publish-pick-create'));
    await waitFor(() => expect(visited).toContain('/create'));
  });

  it('does not open by itself once the user has checked in today', async () => {
    storeLoggedInUser();
    const fetchMock = mockPowerApi({ checkedIn: true, points: 0 });
    renderApp('/stories');
    await screen.findByTestId('stories-heading');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/user/check-in-status')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('power-dialog')).not.toBeInTheDocument();
  });
});

describe('a failed check-in', () => {
  it('says "Check-in failed, please try later" (spec, error catalogue) and stays open to retry', async () => {
    storeLoggedInUser();
    mockPowerApi({ checkedIn: false, points: 0, checkInFails: 502 });
    renderApp('/stories');
    const button = await screen.findByTestId('power-check-in', {}, { timeout: 5000 });
    await waitFor(() => expect(button).toBeEnabled());
    await act(async () => fireEvent.click(button));
    expect(await screen.findByText('Check-in failed, please try later.', { exact: false })).toBeInTheDocument();
    expect(button).toBeEnabled();
  });
});

describe('two-character Chinese buttons', () => {
  it('keep their characters together ("签到", not "签 到")', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('lang', 'zh-CN');
    const { i18n } = await import('../../../lib/i18n');
    await i18n.changeLanguage('zh-CN');
    mockPowerApi({ checkedIn: false, points: 0 });
    renderApp('/stories');
    const button = await screen.findByTestId('power-check-in', {}, { timeout: 5000 });
    expect(button.textContent).toBe('签到');
    await i18n.changeLanguage('en');
  });
});

describe('the power details dialog', () => {
  const page = (records: PointsPage['records'], total = records.length): PointsPage => ({
    records,
    pagination: { page: 1, pageSize: 10, total, totalPages: Math.ceil(total / 10) },
  });

  it('opens from the user menu with income and expense tabs, coloured signed amounts and channel texts', async () => {
    storeLoggedInUser();
    const at = '2026-01-01T08:00:00.000Z';
    const fetchMock = mockPowerApi({
      checkedIn: true,
      points: 0,
      pages: {
        'income:1': page(
          [
            { reason: 'daily_check_in', points: 5000, operationAt: at, storyInfo: { storyName: null } },
            { reason: 'story', points: 12, operationAt: at, storyInfo: { storyName: 'The Lighthouse' } },
          ],
          25,
        ),
        'income:2': page([{ reason: 'init_points', points: 100000, operationAt: at, storyInfo: { storyName: null } }], 25),
        'expense:1': page([{ reason: 'story', points: -120, operationAt: at, storyInfo: { storyName: 'My clone' } }]),
      },
    });
    renderApp('/stories');
    fireEvent.click(await screen.findByTestId('user-menu-trigger'));
    fireEvent.click(await screen.findByTestId('user-menu-power'));
    const dialog = await screen.findByTestId('power-details-dialog');
    expect(await within(dialog).findByText('Creation share: The Lighthouse')).toBeInTheDocument();
    expect(within(dialog).getByText('Daily check-in')).toBeInTheDocument();
    const plus = within(dialog).getByText('+5,000');
    expect(plus).toHaveClass('tl-power-plus');

    fireEvent.click(within(dialog).getByTitle('2'));
    expect(await within(dialog).findByText('Bind phone')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/user/user-points?page=2&type=income&pageSize=10')).toBe(true);

    fireEvent.click(within(dialog).getByTestId('power-details-tab-expense'));
    const minus = await within(dialog).findByText('-120');
    expect(minus).toHaveClass('tl-power-minus');
    expect(within(dialog).getByText('My clone')).toBeInTheDocument();
  });
});

describe('not enough power', () => {
  it('any screen can open the get-power dialog', async () => {
    storeLoggedInUser();
    mockPowerApi({ checkedIn: true, points: 0 });
    renderApp('/play?id=1');
    await screen.findByTestId('user-menu-trigger');
    act(() => requestGetPower());
    expect(await screen.findByTestId('power-dialog', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
