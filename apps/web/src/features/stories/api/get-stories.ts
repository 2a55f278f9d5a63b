import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiSuccess, StoryListData } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

export interface StoryListParams {
  square: boolean;
  page: number;
  pageSize: number;
  search: string;
}

/** `GET /api/user/story-list`: my stories, or the square with `public=true`. */
export async function getStories(params: StoryListParams): Promise<StoryListData> {
  const response = await apiClient.get<ApiSuccess<StoryListData>>('/user/story-list', {
    query: {
      public: params.square ? 'true' : undefined,
      page: params.page,
      pageSize: params.pageSize,
      search: params.search.trim() || undefined,
    },
  });
  return response.data;
}

export const storiesQueryOptions = (params: StoryListParams) =>
  queryOptions({
    queryKey: storyKeys.list(params),
    queryFn: () => getStories(params),
    placeholderData: keepPreviousData,
  });

export function useStories(params: StoryListParams) {
  return useQuery(storiesQueryOptions(params));
}
