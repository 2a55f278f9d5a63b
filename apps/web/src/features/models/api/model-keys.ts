/** Query keys of the models feature. */
export const modelKeys = {
  list: ['models', 'list'] as const,
};
