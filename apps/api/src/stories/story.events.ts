import type { LoreBookInputDto } from '@taleloom/contracts';

/** Where a clone came from: a story as it is (`slot` null) or one of its saved versions (-1: the public one). */
export interface StoryOrigin {
  storyId: string;
  slot: number | null;
}

/** A story was created (an original or a clone): others prepare what they keep per story. */
export class StoryCreated {
  static readonly event = 'story.created';
  constructor(
    readonly id: string,
    readonly userID: string,
    /** A clone's source (what the clone copies of what others keep). */
    readonly origin: StoryOrigin | null = null,
    /** An original's lore, brought in on the create screen (a character card's book, a file's lore block). */
    readonly lore: LoreBookInputDto | null = null,
  ) {}
}

/** A story's public version (archive slot -1) was written: others snapshot what they keep beside it. Awaited. */
export class StoryPublished {
  static readonly event = 'story.published';
  constructor(readonly id: string) {}
}

/** A story's public version was removed (made private). Awaited. */
export class StoryUnpublished {
  static readonly event = 'story.unpublished';
  constructor(readonly id: string) {}
}
