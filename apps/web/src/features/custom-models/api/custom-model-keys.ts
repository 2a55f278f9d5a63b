/** Query keys of the custom models feature. */
export const customModelKeys = {
  all: ['custom-models'] as const,
  list: () => [...customModelKeys.all, 'list'] as const,
};
