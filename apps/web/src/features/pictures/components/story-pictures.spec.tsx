import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PendingTurnData, PicturesData, StoryPicture } from '@taleloom/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';
import { ok, storyData } from '../../../test/story-fixtures';

const id = 'b'.repeat(24);
const text = 'Mara waits at the pier.\nThe ferry is late.';
const idle: PendingTurnData = { state: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', model: '', errorCode: null, cost: 0, turnId: null, takes: [], retryAfterMs: 0 };
const picture = (over: Partial<StoryPicture>): StoryPicture => ({
  id: 'p1', status: 'ready', fileId: 'p1', url: '/api/images/p1', from: 0, to: 23, excerpt: 'at the pier.', prompt: 'A pier at dusk.',
  size: '512*768', width: 512, height: 768, demo: true, errorCode: null, cost: 0, createdAt: 1, updatedAt: 1, ...over,
});
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function serve(story: ReturnType<typeof storyData>, pictures: PicturesData) {
  const calls: { url: string; method: string; body: Record<string, unknown> }[] = [];
  mockFetch((url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ url, method: init.method ?? 'GET', body });
    if (url === `/api/user/check-story/${id}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
    if (url === `/api/llm?id=${id}`) return jsonResponse(ok(story));
    if (url === `/api/llm/${id}/pending`) return jsonResponse(ok(idle));
    if (url === `/api/llm/${id}/branches`) return jsonResponse(ok({ branches: [], current: id, max: 50 }));
    if (url === `/api/llm/${id}/pictures` && init.method === 'POST') return jsonResponse(ok(picture({ id: 'p3', status: 'pending', url: null })), 202);
    if (url === `/api/llm/${id}/pictures`) return jsonResponse(ok(pictures));
    if (url.startsWith(`/api/llm/${id}/pictures/`)) return jsonResponse(ok(picture({ id: 'p2', status: 'pending', url: null })), 202);
    if (url === '/api/images/p1') return new Response(PNG_BYTES, { status: 200, headers: { 'Content-Type': 'image/png' } });
    if (url === '/api/model_list') return jsonResponse(ok([{ label: 'Demo', value: 'demo', points: 0, status: 4, demo: true, contextWindow: 8192, maxOutput: 400 }]));
    return jsonResponse(ok(testUser));
  });
  return calls;
}

const generator = { available: true, demo: true, points: 0 };

describe('story pictures on the play screen', () => {
  beforeEach(() => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:picture-1'), revokeObjectURL: vi.fn() }));
  });
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows pictures beside their passages, with the demo tag; a failed one says why and retries; any passage can be illustrated', async () => {
    const calls = serve(storyData({ id, main_text: text }), {
      generator,
      pictures: [picture({}), picture({ id: 'p2', status: 'failed', url: null, fileId: null, from: 24, to: 42, excerpt: 'is late.', errorCode: 'PICTURE_FAILED', demo: false })],
    });
    renderApp(`/play?id=${id}`);
    const figures = await screen.findAllByTestId('story-picture');
    expect(figures.map((f) => f.getAttribute('data-status'))).toEqual(['ready', 'failed']);
    const img = await within(figures[0]).findByTestId('story-picture-img');
    expect(img).toHaveAttribute('src', 'blob:picture-1');
    expect(img).toHaveAttribute('alt', 'A pier at dusk.');
    expect(calls.find((c) => c.url === '/api/images/p1')).toBeTruthy();
    expect(within(figures[0]).getByTestId('story-picture-demo')).toHaveTextContent('Demo');
    // Each picture comes right before the passage it shows.
    const textBox = screen.getByTestId('play-text');
    expect(textBox.textContent!.indexOf('Mara waits')).toBeGreaterThan(0);
    expect(figures[0].compareDocumentPosition(within(textBox).getByText(/Mara waits/)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // ... and opens the group of lines from that passage on, which holds it beside them (not below earlier pictures).
    const opens = (f: HTMLElement) => [f.parentElement!.className, f.parentElement!.firstElementChild === f, f.parentElement!.querySelector('.tl-passage')!.textContent];
    expect(figures.map(opens)).toEqual([['tl-passage-group', true, 'Mara waits at the pier.\n'], ['tl-passage-group', true, 'The ferry is late.']]);
    expect([...textBox.querySelectorAll('.tl-passage')].map((p) => p.textContent).join('')).toBe(text);
    expect(within(figures[1]).getByTestId('story-picture-error')).toHaveTextContent('The picture could not be drawn. Nothing was charged');

    await act(async () => fireEvent.click(within(figures[1]).getByTestId('story-picture-retry')));
    await waitFor(() => expect(calls.some((c) => c.url === `/api/llm/${id}/pictures/p2/retry` && c.method === 'POST')).toBe(true));

    const cameras = screen.getAllByTestId('illustrate-passage');
    expect(cameras).toHaveLength(2);
    await act(async () => fireEvent.click(cameras[1]));
    await waitFor(() => expect(calls.find((c) => c.url === `/api/llm/${id}/pictures` && c.method === 'POST')?.body).toMatchObject({ from: 24, to: 42 }));
  }, 30_000);

  it('offers no drawing with the camera off (pictures stay), and speaks Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    serve(storyData({ id, main_text: text, settings_camera_switch: false }), { generator, pictures: [picture({})] });
    renderApp(`/play?id=${id}`);
    const [figure] = await screen.findAllByTestId('story-picture');
    expect(within(figure).getByTestId('story-picture-demo')).toHaveTextContent('演示');
    expect(screen.queryByTestId('illustrate-passage')).toBeNull();
    expect(within(figure).queryByTestId('story-picture-redraw')).toBeNull();
    // The settings panel says what the server draws with.
    fireEvent.click(screen.getByTestId('toolbar-settings'));
    expect(await screen.findByTestId('setting-camera-hint')).toHaveTextContent('离线演示配图');
  }, 30_000);
});
