/** Query keys of the stories feature, so every change can invalidate exactly what it touches. */
export const storyKeys = {
  all: ['stories'] as const,
  lists: () => [...storyKeys.all, 'list'] as const,
  list: (params: { square: boolean; pageSize: number; search: string }) =>
    [...storyKeys.lists(), params] as const,
  detail: (id: string) => [...storyKeys.all, 'detail', id] as const,
  check: (id: string) => [...storyKeys.all, 'check', id] as const,
};
