import { afterEach, describe, expect, it } from 'vitest';
import { getUserInfo } from '../features/auth/api/get-user-info';
import { getCustomModels } from '../features/custom-models/api/get-custom-models';
import { getModelList } from '../features/models/api/get-model-list';
import { getPictures } from '../features/pictures/api/get-pictures';
import { getPendingTurn } from '../features/play/api/get-pending-turn';
import { checkStory } from '../features/stories/api/check-story';
import { STORY_PAGE_SIZE, getStories } from '../features/stories/api/get-stories';
import { getStory } from '../features/stories/api/get-story';
import { getTaskStatus } from '../features/tasks/api/get-task-status';
import { apiClient } from '../lib/api-client';
import { clearEarlyReads, EARLY_READ_TTL_MS, startEarlyReads, takeEarlyRead } from '../lib/early-reads';
import { jsonResponse, mockFetch } from '../test/render-app';
import { firstScreenReads, startFirstScreen } from './first-screen';

const ok = (data: unknown) => jsonResponse({ status: 'success', message: 'ok', data });

describe('the first screen reads', () => {
  afterEach(() => clearEarlyReads());

  it('starts exactly the reads /play makes as it opens (the URLs its features ask for)', async () => {
    const asked: string[] = [];
    mockFetch((url) => {
      asked.push(url);
      return ok(url.includes('model_list') || url.includes('custom-models') ? [] : {});
    });
    const id = 'a story/1';
    await Promise.all([
      getUserInfo(),
      checkStory(id),
      getStory(id),
      getPendingTurn(id),
      getPictures(id),
      getTaskStatus(id),
      getModelList(),
      getCustomModels(),
    ]);
    expect(new Set(firstScreenReads('/play', `?id=${encodeURIComponent(id)}`))).toEqual(new Set(asked));
    // Other screens start the session's read only; /play without an id nothing of a story.
    expect(firstScreenReads('/create', '')).toEqual(['/api/user/user-info']);
    expect(firstScreenReads('/play', '')).toEqual(['/api/user/user-info']);
  });

  it("starts exactly the reads /stories makes as it opens: my first page, and the square's first page on its tab", async () => {
    const asked: string[] = [];
    mockFetch((url) => {
      asked.push(url);
      return ok(url.includes('story-list') ? { list: [], pagination: { page: 1, pageSize: STORY_PAGE_SIZE, total: 0, hasMore: false } } : {});
    });
    const first = { pageSize: STORY_PAGE_SIZE, search: '', page: 1 };
    await Promise.all([getUserInfo(), getStories({ ...first, square: false })]);
    expect(firstScreenReads('/stories', '')).toEqual(asked);
    expect(firstScreenReads('/', '')).toEqual(asked);
    await getStories({ ...first, square: true });
    expect(firstScreenReads('/stories', '?tab=square')).toEqual(asked);
  });

  it('answers each read once from the early request, then asks the server again', async () => {
    window.localStorage.setItem('token', 'tok-1');
    let served = 0;
    const fetchMock = mockFetch((url) => ok({ url, served: ++served }));
    startFirstScreen({ pathname: '/play', search: '?id=s1' });
    expect(fetchMock).toHaveBeenCalledTimes(8);
    expect(new Headers(fetchMock.mock.calls[0][1]!.headers).get('Authorization')).toBe('Bearer tok-1');

    const first = await apiClient.get<{ data: { served: number } }>('/llm', { query: { id: 's1' } });
    expect(fetchMock).toHaveBeenCalledTimes(8);
    expect(first.data.served).toBeLessThanOrEqual(8);
    const again = await apiClient.get<{ data: { served: number } }>('/llm', { query: { id: 's1' } });
    expect(fetchMock).toHaveBeenCalledTimes(9);
    expect(again.data.served).toBe(9);
  });

  it('starts nothing without a session, and a read started with another token is not used', async () => {
    const fetchMock = mockFetch(() => ok({}));
    startFirstScreen({ pathname: '/play', search: '?id=s1' });
    expect(fetchMock).not.toHaveBeenCalled();

    startEarlyReads(['/api/user/user-info'], 'old-token');
    window.localStorage.setItem('token', 'new-token');
    await apiClient.get('/user/user-info');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(new Headers(fetchMock.mock.calls[1][1]!.headers).get('Authorization')).toBe('Bearer new-token');
  });

  it('drops an answer nobody took in time', () => {
    mockFetch(() => ok({}));
    startEarlyReads(['/api/model_list'], 't', 1000);
    expect(takeEarlyRead('/api/model_list', 't', 1000 + EARLY_READ_TTL_MS + 1)).toBeNull();
    startEarlyReads(['/api/model_list'], 't', 1000);
    expect(takeEarlyRead('/api/model_list', 't', 1000 + EARLY_READ_TTL_MS)).not.toBeNull();
    expect(takeEarlyRead('/api/model_list', 't', 1000 + EARLY_READ_TTL_MS)).toBeNull();
  });
});
