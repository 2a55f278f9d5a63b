/** Query keys of the play feature. */
export const playKeys = {
  models: ['play', 'models'] as const,
  pending: (id: string) => ['play', 'pending', id] as const,
  pictures: (id: string) => ['play', 'pictures', id] as const,
  pictureFile: (url: string) => ['play', 'picture-file', url] as const,
};
