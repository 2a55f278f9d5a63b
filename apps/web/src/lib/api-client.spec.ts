import { ErrorCode } from '@taleloom/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../test/render-app';
import { ApiClientError, apiClient, setUnauthorizedHandler } from './api-client';
import { changeLanguage } from './i18n';

function lastCall(fetchMock: ReturnType<typeof mockFetch>) {
  const [url, init] = fetchMock.mock.calls.at(-1)!;
  return { url: String(url), init: init!, headers: new Headers(init!.headers) };
}

describe('apiClient', () => {
  beforeEach(() => setUnauthorizedHandler(null));
  afterEach(() => setUnauthorizedHandler(null));

  it('sends the bearer token and adds the current language to POST bodies', async () => {
    window.localStorage.setItem('token', 'abc.def.ghi');
    await changeLanguage('zh-CN');
    const fetchMock = mockFetch(() => jsonResponse({ status: 'success', message: 'ok', data: { id: 1 } }));

    const result = await apiClient.post<{ data: { id: number } }>('/user/login', { type: 'username', userName: 'bob' });

    expect(result.data.id).toBe(1);
    const { url, init, headers } = lastCall(fetchMock);
    expect(url).toBe('/api/user/login');
    expect(init.method).toBe('POST');
    expect(headers.get('Authorization')).toBe('Bearer abc.def.ghi');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(init.body))).toEqual({ type: 'username', userName: 'bob', language: 'zh-CN' });
  });

  it('adds language to PUT and PATCH bodies but sends no body with GET', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ status: 'ok', message: '', data: null }));
    await apiClient.patch('/user/story', { id: 's1' });
    expect(JSON.parse(String(lastCall(fetchMock).init.body))).toEqual({ id: 's1', language: 'en' });
    await apiClient.put('/x', undefined);
    expect(JSON.parse(String(lastCall(fetchMock).init.body))).toEqual({ language: 'en' });
    await apiClient.get('/user/story-list', { query: { public: true } });
    const get = lastCall(fetchMock);
    expect(get.url).toBe('/api/user/story-list?public=true');
    expect(get.init.body).toBeUndefined();
    expect(get.headers.has('Authorization')).toBe(false);
  });

  it('throws an ApiClientError with the server code for an error envelope', async () => {
    mockFetch(() => jsonResponse({ status: 'error', code: ErrorCode.WRONG_PASSWORD, message: 'nope' }, 400));
    const error = await apiClient.post('/user/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ status: 400, code: 'WRONG_PASSWORD', message: 'nope' });
  });

  it("treats a 200 with status 'error' as a failure", async () => {
    mockFetch(() => jsonResponse({ status: 'error', code: ErrorCode.NOT_FOUND, message: 'gone' }));
    await expect(apiClient.get('/thing')).rejects.toMatchObject({ status: 200, code: 'NOT_FOUND' });
  });

  it('reports a network failure as NETWORK_ERROR', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiClient.get('/thing')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('on a 401 clears the token and user info and calls the unauthorized handler', async () => {
    window.localStorage.setItem('token', 'old');
    window.localStorage.setItem('userInfo', '{"userName":"alice"}');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockFetch(() => jsonResponse({ status: 'error', code: ErrorCode.TOKEN_EXPIRED, message: 'expired' }, 401));

    await expect(apiClient.get('/user/user-info')).rejects.toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('userInfo')).toBeNull();
  });
});
