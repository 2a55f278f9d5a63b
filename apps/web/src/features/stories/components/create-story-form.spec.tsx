import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../../../test/render-app';
import { ok } from '../../../test/story-fixtures';

describe('the create screen', () => {
  it('checks the name length and the prologue, then creates and opens the story', async () => {
    storeLoggedInUser();
    const fetchMock = mockFetch((url) =>
      url === '/api/llm' ? jsonResponse(ok({ id: 'd'.repeat(24) }), 201) : jsonResponse(ok(testUser)),
    );
    const { visited } = renderApp('/create');
    const name = await screen.findByTestId('create-name', {}, { timeout: 5000 });
    expect(screen.getByTestId('create-upload')).toBeEnabled();
    expect(screen.getByText('Optional, 2 to 200 characters')).toBeInTheDocument();
    const prologue = screen.getByTestId('create-prologue');
    fireEvent.change(name, { target: { value: 'A' } });
    await act(async () => fireEvent.click(screen.getByTestId('create-submit')));
    expect(await screen.findByText('The story name must be 2 to 200 characters')).toBeInTheDocument();
    expect(await screen.findByText('Please write the prologue and character settings')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/llm')).toBe(false);

    fireEvent.change(name, { target: { value: 'My tale' } });
    fireEvent.change(prologue, { target: { value: 'It began at dawn.' } });
    fireEvent.change(screen.getByTestId('create-role'), { target: { value: 'Knight' } });
    await act(async () => fireEvent.click(screen.getByTestId('create-submit')));
    await waitFor(() => expect(visited).toContain(`/play?id=${'d'.repeat(24)}`));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/llm')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({
      name: 'My tale',
      prologue_and_characters: 'It began at dawn.',
      role: 'Knight',
      play_mode: 'fly_free',
      language: 'en',
    });
  });

  it('creates an untitled story when the name is empty', async () => {
    storeLoggedInUser();
    const fetchMock = mockFetch((url) =>
      url === '/api/llm' ? jsonResponse(ok({ id: 'e'.repeat(24) }), 201) : jsonResponse(ok(testUser)),
    );
    renderApp('/create');
    fireEvent.change(await screen.findByTestId('create-prologue', {}, { timeout: 5000 }), { target: { value: 'Prologue' } });
    await act(async () => fireEvent.click(screen.getByTestId('create-submit')));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/llm')).toBe(true));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/llm')!;
    expect(JSON.parse(String(call[1]!.body)).name).toBe('');
  });
});
