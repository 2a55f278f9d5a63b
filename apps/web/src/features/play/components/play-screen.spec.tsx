import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PendingTurnData, StreamEvent } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';

const id = 'a'.repeat(24);
const ok = <T,>(data: T) => ({ status: 'success', message: 'ok', data });
const idle: PendingTurnData = { state: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', model: '', errorCode: null, cost: 0, turnId: null, takes: [], retryAfterMs: 0 };
const story = {
  id, storyNo: 1, userID: 'u1', name: 'The Dragon', main_text: 'Once upon a time.', goal: '', role: 'Mara', user: 'u1',
  'hidden-settings': '', author: 'alice', writer: 'alice', history_table: [], note_table: [], prologue_and_characters: 'Once upon a time.',
  play_mode: 'fly_free', recovery_point: false, recovery_point_id: null, author_remark: '', previous_summary: '', model_name: '',
  model_type: '', activity: null, activity_story_index: null, permission: '0', level: 0, clonedFrom: null, pinToTop: false, time: 1,
  isOwner: true, settings_system_prompt_switch: 'default', settings_system_prompt_text: '', settings_user_prompt_switch: 'default',
  settings_user_prompt_text: '', settings_camera_switch: true, settings_camera_consistency_switch: false,
  settings_camera_style_switch: 'default', settings_camera_style_prompt_text: '', settings_pic_size: '512*512',
};

// A streamed answer whose events arrive split across chunks at awkward places.
function sse(events: StreamEvent[]): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7));
      c.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

const customModel = {
  model_name: 'my-r1', base_url: 'https://api.deepseek.com', model_type: 'compatible_openai', enable_reasoning: true,
  api_key_masked: '••••abcd', status: 0, created_at: 1, updated_at: 1,
};

function serve(send: (body: Record<string, unknown>) => Response, patch: (body: Record<string, unknown>) => Response = (b) => jsonResponse(ok({ ...story, ...b }))) {
  const calls: { url: string; method?: string; body: Record<string, unknown> }[] = [];
  mockFetch((url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ url, method: init.method, body });
    if (url === `/api/user/check-story/${id}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
    if (url === `/api/llm?id=${id}` && init.method === 'PATCH') return patch(body);
    if (url === `/api/llm?id=${id}`) return jsonResponse(ok(story));
    if (url === '/api/custom-models') return jsonResponse(ok([customModel]));
    if (url === `/api/llm/${id}/pending`) return jsonResponse(ok(idle));
    if (url === `/api/llm/${id}/branches`) return jsonResponse(ok({ branches: [], current: id, max: 50 }));
    if (url === '/api/model_list') return jsonResponse(ok([{ label: 'Demo', value: 'demo', points: 0, status: 4, demo: true, contextWindow: 8192, maxOutput: 400 }]));
    if (url === `/api/llm/${id}` && init.method === 'POST') return send(body);
    if (url === `/api/llm/${id}/accept`) return jsonResponse(ok({ charCount: 40, appended: `\n${String(body.userContent)}\n${String(body.newContent)}` }));
    if (url === `/api/llm/${id}/discard`) return jsonResponse(ok({ ...idle, role: 'Mara', input: 'I open the door.' }));
    return jsonResponse(ok(testUser));
  });
  return calls;
}

describe('play screen', () => {
  it('sends with Shift+Enter (Enter is a new line), streams the turn and saves it', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    const calls = serve((body) =>
      sse([
        { type: 'user', text: `Mara: ${String(body.content)}`, role: 'Mara', turnId: 't1' },
        { type: 'delta', text: 'The door ' },
        { type: 'delta', text: 'creaks open.' },
        { type: 'usage', promptTokens: 10, completionTokens: 3, cost: 0 },
        { type: 'done', turnId: 't1' },
      ]),
    );
    renderApp(`/play?id=${id}`);
    const area = await screen.findByTestId('play-textarea', {}, { timeout: 5000 });
    fireEvent.change(area, { target: { value: 'I open the door.' } });
    fireEvent.keyDown(area, { key: 'Enter' });
    expect(calls.some((c) => c.url === `/api/llm/${id}` && c.body.content)).toBe(false);
    await act(async () => fireEvent.keyDown(area, { key: 'Enter', shiftKey: true }));
    await waitFor(() => expect(screen.getByTestId('turn-ai')).toHaveTextContent('The door creaks open.'));
    expect(screen.getByTestId('turn-user')).toHaveTextContent('Mara: I open the door.');
    const sent = calls.find((c) => c.url === `/api/llm/${id}`)!;
    expect(sent.body).toMatchObject({ role: 'Mara', content: 'I open the door.', regenerate: false, language: 'en' });
    expect((area as HTMLTextAreaElement).value).toBe('');

    await act(async () => fireEvent.click(screen.getByTestId('turn-save')));
    await waitFor(() => expect(screen.getByTestId('play-text')).toHaveTextContent('The door creaks open.'));
    expect(calls.find((c) => c.url.endsWith('/accept'))!.body).toMatchObject({ userContent: 'Mara: I open the door.', newContent: 'The door creaks open.', turnId: 't1' });
    expect(screen.queryByTestId('turn-card')).toBeNull();
  }, 30_000);

  it('a send after an edited turn carries the edit: the server accepts it in the same request (no accept call) and the text shows it', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    let n = 0;
    const calls = serve((body) => {
      n += 1;
      const accepted = (body.accept as { userContent: string; newContent: string } | undefined) ?? null;
      return sse([
        { type: 'user', text: `Mara: ${String(body.content)}`, role: 'Mara', turnId: `t${n}`, ...(accepted ? { appended: `\n${accepted.userContent}\n${accepted.newContent}` } : {}) },
        { type: 'delta', text: n === 1 ? 'The door creaks open.' : 'A draught blows in.' },
        { type: 'usage', promptTokens: 10, completionTokens: 3, cost: 0 },
        { type: 'done', turnId: `t${n}` },
      ]);
    });
    renderApp(`/play?id=${id}`);
    const area = await screen.findByTestId('play-textarea', {}, { timeout: 5000 });
    fireEvent.change(area, { target: { value: 'I open the door.' } });
    await act(async () => fireEvent.click(screen.getByTestId('send-button')));
    await waitFor(() => expect(screen.getByTestId('turn-ai')).toHaveTextContent('The door creaks open.'));
    await act(async () => fireEvent.click(screen.getByTestId('turn-edit')));
    fireEvent.change(screen.getByTestId('turn-ai-edit'), { target: { value: 'The door swings open.' } });
    // Past the one-send-per-second throttle.
    await act(async () => new Promise((r) => setTimeout(r, 1100)));
    fireEvent.change(area, { target: { value: 'I step inside.' } });
    await act(async () => fireEvent.click(screen.getByTestId('send-button')));
    await waitFor(() => expect(screen.getByTestId('turn-ai')).toHaveTextContent('A draught blows in.'));
    const sends = calls.filter((c) => c.url === `/api/llm/${id}` && c.method === 'POST');
    expect(sends).toHaveLength(2);
    expect(sends[0].body.accept).toBeUndefined();
    expect(sends[1].body).toMatchObject({ content: 'I step inside.', accept: { turnId: 't1', userContent: 'Mara: I open the door.', newContent: 'The door swings open.' } });
    expect(calls.some((c) => c.url.endsWith('/accept'))).toBe(false);
    expect(screen.getByTestId('play-text')).toHaveTextContent('The door swings open.');
  }, 30_000);

  it('regenerate keeps the earlier take: the popover flips between takes ("2 / 2", arrows and a swipe) and save takes the one shown', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    let n = 0;
    const calls = serve(() => {
      n += 1;
      return sse([
        { type: 'user', text: 'Mara: I open the door.', role: 'Mara', turnId: `t${n}` },
        { type: 'delta', text: `Take ${n}.` },
        { type: 'usage', promptTokens: 10, completionTokens: 3, cost: 0 },
        { type: 'done', turnId: `t${n}` },
      ]);
    });
    renderApp(`/play?id=${id}`);
    const area = await screen.findByTestId('play-textarea', {}, { timeout: 5000 });
    fireEvent.change(area, { target: { value: 'I open the door.' } });
    await act(async () => fireEvent.click(screen.getByTestId('send-button')));
    await waitFor(() => expect(screen.getByTestId('turn-ai')).toHaveTextContent('Take 1.'));
    // One take: no counter yet.
    expect(screen.queryByTestId('turn-takes')).toBeNull();
    await act(async () => new Promise((r) => setTimeout(r, 1100)));
    await act(async () => fireEvent.click(screen.getByTestId('turn-regenerate')));
    await waitFor(() => expect(screen.getByTestId('turn-ai')).toHaveTextContent('Take 2.'));
    expect(calls.filter((c) => c.url === `/api/llm/${id}` && c.method === 'POST')[1].body).toMatchObject({ regenerate: true, content: 'I open the door.' });
    expect(screen.getByTestId('take-count')).toHaveTextContent('2 / 2');
    expect(screen.getByTestId('take-next')).toBeDisabled();
    fireEvent.click(screen.getByTestId('take-previous'));
    expect(screen.getByTestId('turn-ai')).toHaveTextContent('Take 1.');
    expect(screen.getByTestId('take-count')).toHaveTextContent('1 / 2');
    // A swipe to the left brings the next take back; to the right, the previous one.
    const swipe = (dx: number) => {
      fireEvent.touchStart(screen.getByTestId('turn-ai'), { touches: [{ clientX: 200, clientY: 100 }] });
      fireEvent.touchEnd(screen.getByTestId('turn-ai'), { changedTouches: [{ clientX: 200 + dx, clientY: 104 }] });
    };
    swipe(-120);
    expect(screen.getByTestId('turn-ai')).toHaveTextContent('Take 2.');
    swipe(120);
    expect(screen.getByTestId('turn-ai')).toHaveTextContent('Take 1.');
    // Too short, or mostly vertical (scrolling): nothing flips.
    swipe(20);
    expect(screen.getByTestId('take-count')).toHaveTextContent('1 / 2');
    await act(async () => fireEvent.click(screen.getByTestId('turn-save')));
    await waitFor(() => expect(screen.getByTestId('play-text')).toHaveTextContent('Take 1.'));
    expect(calls.find((c) => c.url.endsWith('/accept'))!.body).toMatchObject({ newContent: 'Take 1.', turnId: 't1' });
  }, 30_000);

  it('a reload shows the takes the server keeps, the newest first in view', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    const take = (turnId: string, aiText: string) => ({ turnId, aiText, state: 'done' as const, reasoning: '', model: 'demo', cost: 0, errorCode: null });
    const kept: PendingTurnData = {
      ...idle, state: 'done', role: 'Mara', input: 'Go', userText: 'Mara: Go', aiText: 'Second.', turnId: 'k2', takes: [take('k1', 'First.'), take('k2', 'Second.')],
    };
    mockFetch((url) => {
      if (url === `/api/user/check-story/${id}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
      if (url === `/api/llm?id=${id}`) return jsonResponse(ok(story));
      if (url === `/api/llm/${id}/pending`) return jsonResponse(ok(kept));
      if (url === `/api/llm/${id}/branches`) return jsonResponse(ok({ branches: [], current: id, max: 50 }));
      if (url === '/api/custom-models') return jsonResponse(ok([]));
      return jsonResponse(ok(testUser));
    });
    renderApp(`/play?id=${id}`);
    expect(await screen.findByTestId('take-count', {}, { timeout: 5000 })).toHaveTextContent('2 / 2');
    expect(screen.getByTestId('turn-ai')).toHaveTextContent('Second.');
    fireEvent.click(screen.getByTestId('take-previous'));
    expect(screen.getByTestId('turn-ai')).toHaveTextContent('First.');
  }, 30_000);

  it('keeps the partial text of a failed stream, says why, and undo restores the line', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    serve(() =>
      sse([
        { type: 'user', text: 'Mara: I open the door.', role: 'Mara', turnId: 't2' },
        { type: 'delta', text: 'The door' },
        { type: 'error', code: 'PROVIDER_ERROR', message: 'x' },
      ]),
    );
    renderApp(`/play?id=${id}`);
    const area = await screen.findByTestId('play-textarea', {}, { timeout: 5000 });
    fireEvent.change(area, { target: { value: 'I open the door.' } });
    await act(async () => fireEvent.click(screen.getByTestId('send-button')));
    expect(await screen.findByTestId('turn-error')).toHaveTextContent('The model failed while writing');
    expect(screen.getByTestId('turn-ai')).toHaveTextContent('The door');
    await act(async () => fireEvent.click(screen.getByTestId('turn-undo')));
    await waitFor(() => expect((area as HTMLTextAreaElement).value).toBe('I open the door.'));
    expect(screen.queryByTestId('turn-card')).toBeNull();
  }, 30_000);

  it('shows the tutorial once and hides the toolbar on a short window', async () => {
    storeLoggedInUser();
    window.localStorage.removeItem('showGuide');
    serve(() => sse([]));
    renderApp(`/play?id=${id}`);
    expect(await screen.findByTestId('play-tutorial', {}, { timeout: 5000 })).toBeInTheDocument();
    for (let i = 0; i < 3; i++) fireEvent.click(screen.getByTestId('tutorial-next'));
    expect(window.localStorage.getItem('showGuide')).toBe('false');
    expect(screen.getByTestId('play-toolbar')).toBeInTheDocument();
    await act(async () => {
      Object.defineProperty(window, 'innerHeight', { configurable: true, value: 400 });
      window.dispatchEvent(new Event('resize'));
    });
    // Hidden, still mounted (what its buttons opened stays open).
    expect(screen.getByTestId('play-toolbar')).not.toBeVisible();
    await act(async () => {
      Object.defineProperty(window, 'innerHeight', { configurable: true, value: 768 });
      window.dispatchEvent(new Event('resize'));
    });
    expect(screen.getByTestId('play-toolbar')).toBeVisible();
  }, 30_000);

  it('groups platform and custom models in the selector, switches to a custom one and sends with it; a failed switch says so', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    let refuse = false;
    const calls = serve(
      () => sse([{ type: 'user', text: '', role: 'Mara', turnId: 't3' }, { type: 'reasoning', text: 'Hmm.' }, { type: 'delta', text: 'Onward.' }, { type: 'done', turnId: 't3' }]),
      (body) => (refuse ? jsonResponse({ status: 'error', code: 'CUSTOM_MODEL_NOT_FOUND', message: 'x' }, 404) : jsonResponse(ok({ ...story, ...body }))),
    );
    renderApp(`/play?id=${id}`);
    const selector = await screen.findByTestId('model-selector', {}, { timeout: 5000 });
    // Enabled once the pending turn is known.
    await waitFor(() => expect(within(selector).getByRole('combobox')).toBeEnabled());
    fireEvent.mouseDown(within(selector).getByRole('combobox'));
    expect(await screen.findByText('Platform models')).toBeInTheDocument();
    expect(screen.getByText('My models')).toBeInTheDocument();
    // The group headers' tooltips are sentences in the user's language, not internal names.
    expect(screen.getByText('Platform models').closest('[title]')).toHaveAttribute('title', 'Models this site serves: writing with them costs power');
    expect(screen.getByText('My models').closest('[title]')).toHaveAttribute('title', 'Models you added: your provider bills your key, no power is spent');
    expect(screen.getByText('free · your key')).toBeInTheDocument();
    expect(screen.getByTestId('model-selector-manage')).toHaveTextContent('Custom models…');
    await act(async () => fireEvent.click(screen.getByText('my-r1')));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ model_name: 'my-r1', model_type: 'compatible_openai' });

    // The send names the custom model; its reasoning shows apart from the story text.
    await act(async () => fireEvent.click(screen.getByTestId('send-button')));
    await waitFor(() => expect(screen.getByTestId('turn-ai')).toHaveTextContent('Onward.'));
    expect(calls.find((c) => c.url === `/api/llm/${id}`)!.body).toMatchObject({ model_name: 'my-r1', model_type: 'compatible_openai' });
    expect(screen.getByTestId('turn-ai')).not.toHaveTextContent('Hmm.');
    expect(screen.getByText('The model\'s reasoning')).toBeInTheDocument();

    // The manage button opens the custom model dialog.
    fireEvent.mouseDown(within(selector).getByRole('combobox'));
    fireEvent.click(await screen.findByTestId('model-selector-manage'));
    expect(await screen.findByTestId('custom-model-intro')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    refuse = true;
    fireEvent.mouseDown(within(selector).getByRole('combobox'));
    await act(async () => fireEvent.click(await screen.findByText('TaleLoom Demo (offline)', { selector: '.tl-play-model__name' })));
    expect(await screen.findByText('Failed to switch model: The custom model does not exist or was deleted.')).toBeInTheDocument();
  }, 60_000);

  it('disables every other control while a turn streams, while the pending turn is edited and while the text is edited', async () => {
    storeLoggedInUser();
    window.localStorage.setItem('showGuide', 'false');
    // A stream held open until the test lets it end.
    let finish = () => {};
    serve(() => {
      const events: StreamEvent[] = [{ type: 'user', text: 'Mara: Go.', role: 'Mara', turnId: 't1' }, { type: 'delta', text: 'The door creaks.' }];
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')));
          finish = () => {
            c.enqueue(new TextEncoder().encode(`data: ${JSON.stringify({ type: 'done', turnId: 't1' })}\n\n`));
            c.close();
          };
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    });
    renderApp(`/play?id=${id}`);
    const area = await screen.findByTestId('play-textarea', {}, { timeout: 5000 });
    const selector = await screen.findByTestId('model-selector');
    const controls = () => [
      ...['toolbar-settings', 'toolbar-archive', 'publish-button', 'toolbar-task', 'toolbar-lore', 'toolbar-export', 'toolbar-branches', 'toolbar-edit', 'title-edit'].map((t) => screen.getByTestId(t)),
      within(selector).getByRole('combobox'),
    ];
    await waitFor(() => controls().forEach((c) => expect(c).toBeEnabled()));

    fireEvent.change(area, { target: { value: 'Go.' } });
    await act(async () => fireEvent.click(screen.getByTestId('send-button')));
    await waitFor(() => expect(screen.getByTestId('turn-ai')).toHaveTextContent('The door creaks.'));
    // Generating: nothing else can be started (the archive dialog does not open).
    controls().forEach((c) => expect(c).toBeDisabled());
    fireEvent.click(screen.getByTestId('toolbar-archive'));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => finish());
    await waitFor(() => expect(screen.getByTestId('turn-edit')).toBeEnabled());
    controls().forEach((c) => expect(c).toBeEnabled());

    // Editing the pending turn: the toolbar waits; the input stays (a send accepts the edit first).
    await act(async () => fireEvent.click(screen.getByTestId('turn-edit')));
    controls().forEach((c) => expect(c).toBeDisabled());
    expect(area).toBeEnabled();
    await act(async () => fireEvent.click(screen.getByTestId('turn-edit')));
    controls().forEach((c) => expect(c).toBeEnabled());

    // Editing the text: the toolbar, the popover's actions and the input all wait.
    await act(async () => fireEvent.click(screen.getByTestId('toolbar-edit')));
    controls().forEach((c) => expect(c).toBeDisabled());
    expect(area).toBeDisabled();
  }, 30_000);
});
