import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ApiSuccess, StoryListData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

export interface StoryListParams {
  square: boolean;
  pageSize: number;
  search: string;
}

/** Stories a page of the stories screen shows. */
export const STORY_PAGE_SIZE = 12;

export const STORY_LIST_PATH = '/user/story-list';

/** The query of one page of the story list (also what the first screen asks for early: first-screen.ts). */
export const storyListQuery = (params: StoryListParams & { page: number }) => ({
  public: params.square ? 'true' : undefined,
  page: params.page,
  pageSize: params.pageSize,
  search: params.search.trim() || undefined,
});

/** `GET /api/user/story-list`: one page of my stories, or of the square with `public=true`. */
export async function getStories(params: StoryListParams & { page: number }): Promise<StoryListData> {
  const response = await apiClient.get<ApiSuccess<StoryListData>>(STORY_LIST_PATH, { query: storyListQuery(params) });
  return response.data;
}

/** Pages follow one another while the server says `hasMore` (infinite scroll). */
export const storiesQueryOptions = (params: StoryListParams) =>
  infiniteQueryOptions({
    queryKey: storyKeys.list(params),
    queryFn: ({ pageParam }) => getStories({ ...params, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.page + 1 : undefined),
  });

export function useStories(params: StoryListParams) {
  return useInfiniteQuery(storiesQueryOptions(params));
}
