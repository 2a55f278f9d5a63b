/** Query keys of the archives feature. */
export const archiveKeys = {
  all: ['archives'] as const,
  list: (storyId: string) => [...archiveKeys.all, 'list', storyId] as const,
};
