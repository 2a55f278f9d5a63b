/** Query keys of the branches feature. */
export const branchKeys = {
  all: ['branches'] as const,
  list: (storyId: string) => [...branchKeys.all, 'list', storyId] as const,
};
