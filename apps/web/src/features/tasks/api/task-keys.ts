/** Query keys of the tasks feature. */
export const taskKeys = {
  all: ['tasks'] as const,
  info: (storyId: string) => [...taskKeys.all, 'info', storyId] as const,
  status: (storyId: string) => [...taskKeys.all, 'status', storyId] as const,
};
