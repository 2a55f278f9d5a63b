/** A story was created (an original or a clone): others prepare what they keep per story. */
export class StoryCreated {
  static readonly event = 'story.created';
  constructor(
    readonly id: string,
    readonly userID: string,
  ) {}
}
