import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';

const ok = <T,>(data: T) => ({ status: 'success', message: 'ok', data });
const parsed = (content: string, extra: object = {}) =>
  ok({ content, kind: 'text', encoding: 'UTF-8', fileName: 'a.txt', characters: content.length, ...extra });

async function pick(name: string, body = 'x') {
  const input = screen.getByTestId('manuscript-upload').querySelector('input[type=file]')!;
  await act(async () => fireEvent.change(input, { target: { files: [new File([body], name)] } }));
}

const states = () => screen.queryAllByTestId('upload-item').map((el) => el.getAttribute('data-state'));

describe('file import on the create screen', () => {
  it('fills an empty field, refuses a wrong type with retry, asks before replacing, and asks append or replace for a card', async () => {
    storeLoggedInUser();
    const answers = [parsed('First text'), parsed('Second text'), parsed('Card text', { kind: 'character_card', card: { name: 'Mira', spec: 'v2' } })];
    const fetchMock = mockFetch((url) => (url === '/api/upload_parse' ? jsonResponse(answers.shift()) : jsonResponse(ok(testUser))));
    renderApp('/create');
    const prologue = (await screen.findByTestId('create-prologue', {}, { timeout: 5000 })) as HTMLTextAreaElement;

    await pick('a.txt');
    await waitFor(() => expect(prologue.value).toBe('First text'));
    expect(states()).toEqual(['finished']);
    const body = fetchMock.mock.calls.find(([url]) => url === '/api/upload_parse')![1]!.body as FormData;
    expect(body.get('language')).toBe('en');
    expect((body.get('file') as File).name).toBe('a.txt');

    await pick('virus.exe');
    await waitFor(() => expect(states()).toEqual(['finished', 'error']));
    expect(screen.getByTestId('upload-error')).toHaveTextContent('File type not supported');
    await act(async () => fireEvent.click(screen.getByTestId('upload-retry')));
    expect(states()).toEqual(['finished', 'error']);
    await act(async () => fireEvent.click(screen.getAllByTestId('upload-remove')[1]));
    expect(states()).toEqual(['finished']);

    // A second file asks to replace; replacing marks the first removed.
    await pick('b.txt');
    await screen.findByTestId('upload-replace', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(screen.getByTestId('upload-replace')));
    expect(prologue.value).toBe('Second text');
    expect(states()).toEqual(['finished']);

    // A card asks append or replace.
    await pick('mira.png');
    await screen.findByTestId('upload-append', {}, { timeout: 5000 });
    expect(screen.getByText('Character card “Mira”')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByTestId('upload-append')));
    await waitFor(() => expect(prologue.value).not.toBe('Second text'));
    expect(prologue.value).toBe('Second text\n\nCard text');
    // The card names the story (the name field was empty).
    expect(screen.getByTestId('create-name')).toHaveValue('Mira');
  }, 40_000);

  it('a card does not rename a story the user already named', async () => {
    storeLoggedInUser();
    mockFetch((url) =>
      url === '/api/upload_parse' ? jsonResponse(parsed('Card text', { kind: 'character_card', card: { name: 'Mira', spec: 'v3' } })) : jsonResponse(ok(testUser)),
    );
    renderApp('/create');
    const name = await screen.findByTestId('create-name', {}, { timeout: 5000 });
    fireEvent.change(name, { target: { value: 'My own title' } });
    await pick('mira.png');
    await waitFor(() => expect((screen.getByTestId('create-prologue') as HTMLTextAreaElement).value).toBe('Card text'));
    expect(name).toHaveValue('My own title');
  }, 40_000);

  it('a lore book leaves the text as it is: its entries go with the new story', async () => {
    storeLoggedInUser();
    const lore = { entries: [{ title: 'Wyrm', keys: ['wyrm'], content: 'Wyrms sleep.' }] };
    const fetchMock = mockFetch((url) =>
      url === '/api/upload_parse' ? jsonResponse(ok({ content: '', kind: 'lore_book', fileName: 'world.json', characters: 0, lore })) : jsonResponse(ok(testUser)),
    );
    renderApp('/create');
    const prologue = (await screen.findByTestId('create-prologue', {}, { timeout: 5000 })) as HTMLTextAreaElement;
    await act(async () => fireEvent.change(prologue, { target: { value: 'My own prologue.' } }));
    await pick('world.json', '{}');
    await waitFor(() => expect(states()).toEqual(['finished']));
    expect(screen.queryByTestId('upload-replace')).not.toBeInTheDocument();
    expect(prologue.value).toBe('My own prologue.');
    expect(screen.getByText('1 lore entry')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/upload_parse')).toHaveLength(1);
  });

  it('shows a server error on the item and retries it', async () => {
    storeLoggedInUser();
    let calls = 0;
    mockFetch((url) => {
      if (url !== '/api/upload_parse') return jsonResponse(ok(testUser));
      calls += 1;
      return calls === 1
        ? jsonResponse({ status: 'error', code: 'FILE_PARSE_FAILED', message: 'x' }, 422)
        : jsonResponse(parsed('Recovered'));
    });
    renderApp('/create');
    const prologue = (await screen.findByTestId('create-prologue', {}, { timeout: 5000 })) as HTMLTextAreaElement;
    await pick('broken.docx');
    await waitFor(() => expect(states()).toEqual(['error']));
    expect(screen.getByTestId('upload-error')).toHaveTextContent('File parsing failed');
    await act(async () => fireEvent.click(screen.getByTestId('upload-retry')));
    await waitFor(() => expect(prologue.value).toBe('Recovered'));
    expect(states()).toEqual(['finished']);
  });

  it('refuses a file over 10 MB before sending it', async () => {
    storeLoggedInUser();
    const fetchMock = mockFetch(() => jsonResponse(ok(testUser)));
    renderApp('/create');
    await screen.findByTestId('create-prologue', {}, { timeout: 5000 });
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.txt');
    const input = screen.getByTestId('manuscript-upload').querySelector('input[type=file]')!;
    await act(async () => fireEvent.change(input, { target: { files: [big] } }));
    await waitFor(() => expect(screen.getByTestId('upload-error')).toHaveTextContent('File size cannot exceed 10MB'));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/upload_parse')).toBe(false);
  });
});
