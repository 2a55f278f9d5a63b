/** Query keys of the pictures feature. */
export const pictureKeys = {
  ofStory: (id: string) => ['pictures', 'story', id] as const,
  file: (url: string) => ['pictures', 'file', url] as const,
};
