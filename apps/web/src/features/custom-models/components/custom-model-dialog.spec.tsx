import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { CustomModelView } from '@taleloom/contracts';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { jsonResponse, mockFetch } from '../../../test/render-app';
import { CustomModelDialog } from './custom-model-dialog';

const ok = (data: unknown) => jsonResponse({ status: 'success', message: 'ok', data });
const fail = (status: number, code: string, params?: object) => jsonResponse({ status: 'error', code, message: code, ...(params ? { params } : {}) }, status);
const view = (name: string, over: Partial<CustomModelView> = {}): CustomModelView => ({
  model_name: name, base_url: 'https://api.deepseek.com', model_type: 'compatible_openai', enable_reasoning: false,
  api_key_masked: '••••abcd', status: 4, created_at: 1, updated_at: 1, ...over,
});

function serve(models: CustomModelView[], answer: (url: string, method: string, body: Record<string, unknown>) => Response | null = () => null) {
  const calls: { url: string; method: string; body: Record<string, unknown> }[] = [];
  mockFetch((url, init) => {
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ url, method, body });
    return answer(url, method, body) ?? (url === '/api/custom-models' && method === 'GET' ? ok(models) : fail(404, 'ROUTE_NOT_FOUND'));
  });
  return calls;
}

function renderDialog(props: { onDeleted?: (name: string) => void } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  return render(
    <AppProviders queryClient={queryClient}>
      <CustomModelDialog open onClose={() => undefined} onDeleted={props.onDeleted} />
    </AppProviders>,
  );
}

// Generous waits: the machines running these tests are shared and sometimes slow.
const SLOW = { timeout: 8000 };
const field = (id: string) => screen.getByTestId(id) as HTMLInputElement;

describe('the custom model dialog', () => {
  it('asks for every field, keeps the name unique without regard to case and refuses /chat/completions', async () => {
    serve([view('DeepSeek-Chat')]);
    renderDialog();
    expect(await screen.findByTestId('custom-model-intro', {}, SLOW)).toHaveTextContent('costs no power');
    expect(await screen.findByTestId('custom-model-item-name', {}, SLOW)).toHaveTextContent('DeepSeek-Chat');
    expect(screen.getByTestId('custom-model-list')).toHaveTextContent('••••abcd');
    fireEvent.click(screen.getByTestId('custom-model-add'));

    await act(async () => fireEvent.click(await screen.findByTestId('custom-model-save', {}, SLOW)));
    expect(await screen.findByTestId('custom-model-incomplete', {}, SLOW)).toHaveTextContent('Please fill in all required fields.');
    expect(screen.getByText('Please enter the model name')).toBeInTheDocument();
    expect(screen.getByText('Please enter the API address')).toBeInTheDocument();
    expect(screen.getByText('Please enter the API key')).toBeInTheDocument();

    fireEvent.change(field('custom-model-name'), { target: { value: 'deepseek-chat' } });
    expect(await screen.findByText('Model name already exists, please use another name.', {}, SLOW)).toBeInTheDocument();
    fireEvent.change(field('custom-model-url'), { target: { value: 'https://api.deepseek.com/v1/chat/completions' } });
    expect(await screen.findByText('Remove /chat/completions: the address ends before it (…/v1).', {}, SLOW)).toBeInTheDocument();
  }, 60_000);

  it('fills the address from one of the 13 provider shortcuts and saves', async () => {
    const calls = serve([], (url, method, body) =>
      url === '/api/custom-models' && method === 'POST' ? ok(view(String(body.model_name), { base_url: String(body.base_url) })) : null,
    );
    renderDialog();
    await screen.findByText('No custom models yet.', {}, SLOW);
    fireEvent.click(screen.getByTestId('custom-model-add'));
    const preset = within(await screen.findByTestId('custom-model-preset', {}, SLOW)).getByRole('combobox');
    fireEvent.mouseDown(preset);
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(13), SLOW);
    fireEvent.click(await screen.findByTitle('DeepSeek', {}, SLOW));
    await waitFor(() => expect(field('custom-model-url').value).toBe('https://api.deepseek.com'), SLOW);
    fireEvent.change(field('custom-model-name'), { target: { value: 'deepseek-reasoner' } });
    fireEvent.change(field('custom-model-key'), { target: { value: 'sk-typed-key' } });
    await act(async () => fireEvent.click(screen.getByTestId('custom-model-save')));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), SLOW);
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      model_name: 'deepseek-reasoner', base_url: 'https://api.deepseek.com', api_key: 'sk-typed-key', model_type: 'compatible_openai', enable_reasoning: false,
    });
    expect(await screen.findByText('deepseek-reasoner saved', {}, SLOW)).toBeInTheDocument();
  }, 60_000);

  it('tests a connection and says what went wrong in the user’s language, with the names the provider offers', async () => {
    let attempt = 0;
    const calls = serve([view('m1')], (url) => {
      if (url !== '/api/custom-models/test') return null;
      return ++attempt === 1 ? fail(422, 'CUSTOM_MODEL_MODEL_MISSING', { status: 'HTTP 404', detail: '', models: 'deepseek-chat, deepseek-reasoner' }) : ok({ modelListed: true, models: ['m1'], latencyMs: 321 });
    });
    renderDialog();
    fireEvent.click(await screen.findByTestId('custom-model-edit', {}, SLOW));
    // Editing: the key may stay empty (the saved one is used), said in its placeholder.
    expect(field('custom-model-key').placeholder).toBe('Leave empty to keep the saved key (••••abcd)');
    await act(async () => fireEvent.click(screen.getByTestId('custom-model-test')));
    const error = await screen.findByTestId('custom-model-test-error', {}, SLOW);
    expect(error).toHaveTextContent('Connection failed: The provider does not offer a model of this name.');
    expect(error).toHaveTextContent('Models this provider offers: deepseek-chat, deepseek-reasoner');
    // Exactly the fields the test takes (the API refuses unknown ones); no key, so the saved one is used.
    expect(calls.find((c) => c.url === '/api/custom-models/test')!.body).toEqual({
      model_name: 'm1', base_url: 'https://api.deepseek.com', model_type: 'compatible_openai', saved_name: 'm1', language: 'en',
    });
    await act(async () => fireEvent.click(screen.getByTestId('custom-model-test')));
    expect(await screen.findByTestId('custom-model-test-ok', {}, SLOW)).toHaveTextContent('Connected in 321 ms.');
  }, 60_000);

  it('allows no more than 3, and deletes after a confirmation', async () => {
    const onDeleted = vi.fn();
    const calls = serve([view('a'), view('b'), view('c')], (_url, method) => (method === 'DELETE' ? ok({ model_name: 'b' }) : null));
    renderDialog({ onDeleted });
    await screen.findAllByTestId('custom-model-item', {}, SLOW);
    expect(screen.getByTestId('custom-model-add')).toBeDisabled();
    expect(screen.getByTestId('custom-model-limit')).toHaveTextContent('At most 3 custom models.');
    fireEvent.click(screen.getAllByTestId('custom-model-delete')[1]);
    await act(async () => fireEvent.click(await screen.findByTestId('custom-model-delete-ok', {}, SLOW)));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledWith('b'), SLOW);
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/custom-models/b');
  }, 60_000);

  it('changes and deletes a model whose name has a slash (deepseek-ai/DeepSeek-V3), the name URL-encoded as one path segment', async () => {
    const name = 'deepseek-ai/DeepSeek-V3';
    const calls = serve([view(name, { base_url: 'https://api.siliconflow.cn/v1' })], (_url, method, body) => {
      if (method === 'PUT') return ok(view(name, { enable_reasoning: Boolean(body.enable_reasoning) }));
      return method === 'DELETE' ? ok({ model_name: name }) : null;
    });
    renderDialog();
    fireEvent.click(await screen.findByTestId('custom-model-edit', {}, SLOW));
    await act(async () => fireEvent.click(await screen.findByTestId('custom-model-reasoning', {}, SLOW)));
    await act(async () => fireEvent.click(screen.getByTestId('custom-model-save')));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), SLOW);
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/custom-models/deepseek-ai%2FDeepSeek-V3');
    expect(put.body).toMatchObject({ model_name: name, enable_reasoning: true });

    await waitFor(() => expect(screen.getByTestId('custom-model-delete')).toBeInTheDocument(), SLOW);
    fireEvent.click(screen.getByTestId('custom-model-delete'));
    await act(async () => fireEvent.click(await screen.findByTestId('custom-model-delete-ok', {}, SLOW)));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true), SLOW);
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/api/custom-models/deepseek-ai%2FDeepSeek-V3');
  }, 60_000);

  it('says when the list cannot be fetched', async () => {
    serve([], (url) => (url === '/api/custom-models' ? fail(503, 'DATABASE_UNAVAILABLE') : null));
    renderDialog();
    expect(await screen.findByTestId('custom-model-get-error', {}, SLOW)).toHaveTextContent('Failed to get custom models:');
  }, 60_000);
});
