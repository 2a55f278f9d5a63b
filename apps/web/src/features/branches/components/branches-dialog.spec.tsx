import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BranchesData, BranchView, PendingTurnData } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';
import { ok, storyData } from '../../../test/story-fixtures';

const id = 'b'.repeat(24);
const fork = 'c'.repeat(24);
const idle: PendingTurnData = { state: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', model: '', errorCode: null, cost: 0, turnId: null, takes: [], retryAfterMs: 0 };
const main: BranchView = { id, no: 1, name: '', current: true, forkedFrom: null, length: 40, lastPlayedAt: null, createdAt: 1 };
const branch: BranchView = {
  id: fork, no: 2, name: 'The quiet road', current: false, length: 17, lastPlayedAt: Date.UTC(2026, 0, 2, 10, 0), createdAt: 2,
  forkedFrom: { parentId: id, parentNo: 1, parentName: '', at: 17, excerpt: 'Once upon a time.' },
};

/** The play route on a story with two lines; `played` says which one the server plays. */
function serve() {
  let played = id;
  const texts: Record<string, string> = { [id]: 'Once upon a time.\nThe dragon woke.', [fork]: 'Once upon a time.' };
  const list = (): BranchesData => ({ branches: [{ ...main, current: played === id }, { ...branch, current: played === fork }], current: played, max: 50 });
  const calls: { url: string; method?: string; body: Record<string, unknown> }[] = [];
  mockFetch((url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ url, method: init.method, body });
    const story = storyData({ id, main_text: texts[played], branch_id: played });
    if (url === `/api/user/check-story/${id}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
    if (url === `/api/llm?id=${id}`) return jsonResponse(ok(story));
    if (url === `/api/llm/${id}/pending`) return jsonResponse(ok(idle));
    if (url === `/api/llm/${id}/branches` && init.method === 'POST') {
      played = fork;
      texts[fork] = texts[id].slice(0, Number(body.at));
      return jsonResponse(ok({ ...list(), story: storyData({ id, main_text: texts[fork], branch_id: fork }) }));
    }
    if (url === `/api/llm/${id}/branches`) return jsonResponse(ok(list()));
    if (url.startsWith(`/api/llm/${id}/branches/`) && url.endsWith('/play')) {
      played = url.split('/')[5];
      return jsonResponse(ok({ ...list(), story: storyData({ id, main_text: texts[played], branch_id: played }) }));
    }
    if (url === `/api/llm/${id}/branches/${fork}` && init.method === 'PATCH') {
      return jsonResponse(ok({ ...list(), branches: list().branches.map((b) => (b.id === fork ? { ...b, name: String(body.name) } : b)) }));
    }
    if (url === '/api/custom-models') return jsonResponse(ok([]));
    return jsonResponse(ok(testUser));
  });
  return calls;
}

describe('branches', () => {
  it('lists the lines of the story and switches between them: the text follows the branch played', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    const calls = serve();
    renderApp(`/play?id=${id}`);
    await waitFor(() => expect(screen.getByTestId('play-text')).toHaveTextContent('The dragon woke.'), { timeout: 5000 });
    // The toolbar opens once the pending turn is known (it is locked while that loads).
    await waitFor(() => expect(screen.getByTestId('toolbar-branches')).toBeEnabled(), { timeout: 5000 });
    await act(async () => fireEvent.click(screen.getByTestId('toolbar-branches')));
    const items = await screen.findAllByTestId('branch-item');
    expect(items.map((li) => within(li).getByTestId('branch-name').textContent)).toEqual(['Main linePlaying', 'The quiet road']);
    expect(items[0]).toHaveTextContent('The original line');
    expect(items[0]).toHaveTextContent('40 characters');
    expect(items[0]).not.toHaveTextContent('Last played');
    expect(items[1]).toHaveTextContent('From Main line, after “Once upon a time.”');
    expect(items[1]).toHaveTextContent('17 characters · Last played');
    // The branch played is neither played again nor deleted.
    expect(within(items[0]).queryByTestId('branch-play')).toBeNull();
    expect(within(items[0]).getByTestId('branch-delete')).toBeDisabled();

    await act(async () => fireEvent.click(within(items[1]).getByTestId('branch-play')));
    expect(await screen.findByText('Now playing: The quiet road')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('play-text')).not.toHaveTextContent('The dragon woke.'));
    expect(screen.getByTestId('play-text')).toHaveTextContent('Once upon a time.');
    expect(calls.some((c) => c.url === `/api/llm/${id}/branches/${fork}/play` && c.method === 'POST')).toBe(true);

    // Renamed from the list.
    await act(async () => fireEvent.click(screen.getByTestId('toolbar-branches')));
    const again = await screen.findAllByTestId('branch-item');
    fireEvent.click(within(again[1]).getByTestId('branch-rename'));
    fireEvent.change(screen.getByTestId('branch-name-input'), { target: { value: '  Inland ' } });
    await act(async () => fireEvent.click(screen.getByTestId('branch-name-save')));
    await waitFor(() => expect(screen.getAllByTestId('branch-name')[1]).toHaveTextContent('Inland'));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ name: 'Inland' });
  }, 30_000);

  it('"branch from here" on an earlier passage asks, then plays the new line from the end of that passage', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    const calls = serve();
    renderApp(`/play?id=${id}`);
    await waitFor(() => expect(screen.getByTestId('play-text')).toHaveTextContent('The dragon woke.'), { timeout: 5000 });
    // Every line but the last has the button (once the pending turn is known: not while a turn is written).
    const buttons = await screen.findAllByTestId('branch-from-passage');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveAccessibleName('Branch from here');
    await act(async () => fireEvent.click(buttons[0]));
    await act(async () => fireEvent.click(await screen.findByTestId('branch-fork-ok')));
    await waitFor(() => expect(screen.getByTestId('play-text')).not.toHaveTextContent('The dragon woke.'));
    expect(calls.find((c) => c.url === `/api/llm/${id}/branches` && c.method === 'POST')!.body).toMatchObject({ at: 17, from_branch: id });
    expect(await screen.findByText('New branch: The quiet road. The earlier line is kept under Branches.')).toBeInTheDocument();
  }, 30_000);
});
