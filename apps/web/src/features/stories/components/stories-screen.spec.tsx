import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';
import { ok, storyItem, storyList } from '../../../test/story-fixtures';

const siteConfig = { qqGroup: { number: '123456', imageUrl: '', link: '' }, discordUrl: 'https://discord.gg/x', activity: null };

function serve(mine: ReturnType<typeof storyList>, square: ReturnType<typeof storyList>) {
  return mockFetch((url) => {
    if (url.startsWith('/api/user/story-list')) return jsonResponse(ok(url.includes('public=true') ? square : mine));
    if (url.startsWith('/api/site-config')) return jsonResponse(ok(siteConfig));
    if (url.startsWith('/api/llm/')) return jsonResponse(ok({ id: 'c'.repeat(24) }));
    return jsonResponse(ok(testUser));
  });
}

describe('the stories screen', () => {
  it('lists my stories with titles, badges, time and snippets, and shows the new-story button once loaded', async () => {
    storeLoggedInUser();
    serve(
      storyList([
        storyItem({ id: '1'.repeat(24), name: 'Clone', level: 2, clonedFrom: 12, permission: '1', pinToTop: true }),
        storyItem({ id: '2'.repeat(24), name: '', recovery_point: true, 'last-line': '' }),
      ]),
      storyList([]),
    );
    renderApp('/stories');
    const items = await screen.findAllByTestId('story-item', {}, { timeout: 5000 });
    expect(items).toHaveLength(2);
    expect(within(items[0]).getByTestId('story-title')).toHaveTextContent('S12 Clone V2');
    expect(within(items[0]).getByTestId('story-badge-pinned')).toHaveTextContent('Pinned');
    expect(within(items[0]).getByTestId('story-badge-latest')).toBeInTheDocument();
    expect(within(items[0]).getByTestId('story-badge-public')).toBeInTheDocument();
    expect(within(items[0]).getByTestId('story-snippet')).toHaveTextContent('Once upon a time. ... The end.');
    expect(within(items[1]).getByTestId('story-title')).toHaveTextContent('Untitled');
    expect(within(items[1]).getByTestId('story-badge-restorePoint')).toBeInTheDocument();
    expect(within(items[1]).queryByTestId('story-badge-latest')).toBeNull();
    expect(within(items[1]).getByTestId('story-snippet')).toHaveTextContent('Once upon a time.');
    expect(screen.getByTestId('stories-new')).toBeInTheDocument();
    expect(screen.queryByTestId('square-stats')).toBeNull();
    // English shows the Discord button.
    expect(await screen.findByTestId('community-button', {}, { timeout: 5000 })).toHaveTextContent('Discord');
  });

  it('switches to the public tab after 1 second when I have no story, and shows the square counters', async () => {
    storeLoggedInUser();
    serve(
      storyList([]),
      storyList([
        storyItem({ permission: '1', userID: 'u1', unique_user_count: 3, penetration_story_total_rounds: 10, story_average_rounds: 3.33, additional_story_count: 1000, story_average_count: 333.33 }),
        storyItem({ id: '9'.repeat(24), permission: '1', userID: 'someone' }),
      ]),
    );
    renderApp('/stories');
    expect(await screen.findByTestId('stories-empty-mine', {}, { timeout: 5000 })).toHaveTextContent('You have no stories yet');
    const list = await screen.findByTestId('story-list-public', {}, { timeout: 3000 });
    const items = within(list).getAllByTestId('story-item');
    expect(within(items[0]).getByTestId('story-badge-myStory')).toBeInTheDocument();
    expect(within(items[1]).queryByTestId('story-badge-myStory')).toBeNull();
    expect(within(items[0]).getByTestId('stat-players')).toHaveTextContent('3');
    expect(within(items[0]).getByTestId('stat-averageRounds')).toHaveTextContent('3.33');
    expect(within(items[0]).getByTestId('stat-totalChars')).toHaveTextContent('1,000');
    expect(within(items[0]).getByTestId('stat-averageChars')).toHaveTextContent('333.33');
  });

  it('searches by name', async () => {
    storeLoggedInUser();
    const fetchMock = serve(storyList([storyItem()]), storyList([]));
    renderApp('/stories');
    await screen.findAllByTestId('story-item', {}, { timeout: 5000 });
    const input = within(screen.getByTestId('stories-search')).getByRole('searchbox');
    fireEvent.change(input, { target: { value: 'dragon' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/user/story-list?page=1&pageSize=12&search=dragon'),
    );
  });

  it('loads the next page while the server says there is more', async () => {
    storeLoggedInUser();
    const page1 = { list: [storyItem({ id: '1'.repeat(24), name: 'First page' })], pagination: { page: 1, pageSize: 12, hasMore: true } };
    const page2 = { list: [storyItem({ id: '2'.repeat(24), name: 'Second page' })], pagination: { page: 2, pageSize: 12, hasMore: false } };
    mockFetch((url) => {
      if (url.startsWith('/api/user/story-list')) return jsonResponse(ok(url.includes('page=2') ? page2 : page1));
      if (url.startsWith('/api/site-config')) return jsonResponse(ok(siteConfig));
      return jsonResponse(ok(testUser));
    });
    renderApp('/stories');
    expect(await screen.findAllByTestId('story-item', {}, { timeout: 5000 })).toHaveLength(1);
    fireEvent.click(screen.getByTestId('stories-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('story-title').map((e) => e.textContent)).toEqual(['First page', 'Second page']));
    expect(screen.queryByTestId('stories-load-more')).toBeNull();
    // "Latest" marks the first story of the whole list only.
    expect(screen.getAllByTestId('story-badge-latest')).toHaveLength(1);
  });

  it('starts a story; one with a restore point is cloned first and the copy opens, without a question', async () => {
    storeLoggedInUser();
    const fetchMock = serve(storyList([storyItem({ id: '1'.repeat(24), recovery_point: true }), storyItem({ id: '2'.repeat(24) })]), storyList([]));
    const { router, visited } = renderApp('/stories');
    const starts = await screen.findAllByTestId('story-start', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(starts[1]));
    await waitFor(() => expect(visited).toContain(`/play?id=${'2'.repeat(24)}`));
    expect(fetchMock).not.toHaveBeenCalledWith(`/api/llm/${'2'.repeat(24)}/clone`, expect.anything());
    await act(async () => router.navigate('/stories'));
    const again = await screen.findAllByTestId('story-start', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(again[0]));
    await waitFor(() => expect(visited).toContain(`/play?id=${'c'.repeat(24)}`));
    expect(fetchMock).toHaveBeenCalledWith(`/api/llm/${'1'.repeat(24)}/clone`, expect.objectContaining({ method: 'POST' }));
    expect(visited).not.toContain(`/play?id=${'1'.repeat(24)}`);
    expect(screen.queryByRole('dialog')).toBeNull();
    vi.useRealTimers();
  });

  it('shows the QQ group dialog in Chinese', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('lang', 'zh-CN');
    const { i18n } = await import('../../../lib/i18n');
    await i18n.changeLanguage('zh-CN');
    serve(storyList([storyItem()]), storyList([]));
    renderApp('/stories');
    const button = await screen.findByTestId('community-button', {}, { timeout: 5000 });
    expect(button).toHaveTextContent('QQ群');
    fireEvent.click(button);
    expect(await screen.findByTestId('community-number')).toHaveTextContent('群号：123456');
  });
});
