import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';
import { ok, storyData } from '../test-fixtures';

const mine = 'a'.repeat(24);
const theirs = 'b'.repeat(24);
const clone = 'c'.repeat(24);

function serve(overrides: Record<string, () => Response> = {}) {
  return mockFetch((url, init) => {
    for (const [prefix, answer] of Object.entries(overrides)) if (url.startsWith(prefix)) return answer();
    if (url === `/api/user/check-story/${mine}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
    if (url === `/api/user/check-story/${clone}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
    if (url === `/api/user/check-story/${theirs}`) return jsonResponse(ok({ userHasStory: false, isPublic: true, originUserID: 'u2' }));
    if (url.startsWith('/api/user/check-story/')) return jsonResponse({ status: 'error', code: 'STORY_NOT_FOUND', message: 'nope' }, 404);
    if (url === '/api/user/clone-public-story' && init.method === 'POST') return jsonResponse(ok({ id: clone }), 201);
    if (url === `/api/llm?id=${mine}`) return jsonResponse(ok(storyData({ id: mine })));
    if (url === `/api/llm?id=${clone}`) return jsonResponse(ok(storyData({ id: clone, name: 'The Dragon', level: 1, clonedFrom: 5 })));
    if (url === `/api/user/public/${mine}`) return jsonResponse(ok({}));
    return jsonResponse(ok(testUser));
  });
}

describe('opening a story on /play', () => {
  it('loads my own story with its title and text', async () => {
    storeLoggedInUser();
    serve();
    renderApp(`/play?id=${mine}`);
    expect(await screen.findByTestId('play-title', {}, { timeout: 5000 })).toHaveTextContent('The Dragon');
    expect(screen.getByTestId('play-text').textContent).toBe('Once upon a time.\nThe end.');
    expect(screen.getByTestId('publish-button')).toBeInTheDocument();
  });

  it("clones someone else's public story and goes to the clone after 1 second", async () => {
    storeLoggedInUser();
    const fetchMock = serve();
    const { router } = renderApp(`/play?id=${theirs}`);
    expect(await screen.findByTestId('play-cloning', {}, { timeout: 5000 })).toBeInTheDocument();
    const cloneCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/user/clone-public-story');
    await waitFor(() => expect(cloneCalls()).toHaveLength(1));
    expect(JSON.parse(String(cloneCalls()[0][1]!.body))).toMatchObject({ userID: 'u2', storyID: theirs });
    expect(router.state.location.search).toBe(`?id=${theirs}`);
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${clone}`), { timeout: 3000 });
    expect(await screen.findByTestId('play-title', {}, { timeout: 5000 })).toHaveTextContent('S5 The Dragon V1');
    expect(cloneCalls()).toHaveLength(1);
  });

  it('shows an error and goes back to /stories for a story that is neither mine nor public', async () => {
    storeLoggedInUser();
    serve();
    const { router } = renderApp(`/play?id=${'f'.repeat(24)}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/stories'));
    expect(await screen.findByText('The story does not exist or is not public.')).toBeInTheDocument();
  });

  it('publishes after a confirmation', async () => {
    storeLoggedInUser();
    const fetchMock = serve();
    renderApp(`/play?id=${mine}`);
    fireEvent.click(await screen.findByTestId('publish-button', {}, { timeout: 5000 }));
    expect((await screen.findAllByText('Publish this story?')).length).toBeGreaterThan(0);
    const dialog = (await screen.findAllByRole('dialog')).at(-1)!;
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' })));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(`/api/user/public/${mine}`, expect.objectContaining({ method: 'POST' })),
    );
  });

  it('offers update, private and share for a public story; share shows the link and a 200 px QR code', async () => {
    storeLoggedInUser();
    serve({ [`/api/llm?id=${mine}`]: () => jsonResponse(ok(storyData({ id: mine, permission: '1' }))) });
    renderApp(`/play?id=${mine}`);
    fireEvent.click(await screen.findByTestId('publish-menu', {}, { timeout: 5000 }));
    expect(await screen.findByTestId('publish-update')).toBeInTheDocument();
    expect(screen.getByTestId('publish-private')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('publish-share'));
    const link = await screen.findByTestId('share-link');
    expect(link).toHaveValue(`${window.location.origin}/play?id=${mine}`);
    const qr = screen.getByTestId('share-qr');
    expect(qr).toHaveStyle({ width: '200px', height: '200px' });
    expect(qr.className).toContain('borderless');
  });
});
