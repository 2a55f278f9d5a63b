/** A story was saved into a slot: others save what they keep beside it. Awaited by the save. */
export class ArchiveSaved {
  static readonly event = 'archive.saved';
  constructor(
    readonly storyId: string,
    readonly index: number,
  ) {}
}

/** A story was restored from a slot: others restore what they saved beside it. Awaited by the load. */
export class ArchiveLoaded {
  static readonly event = 'archive.loaded';
  constructor(
    readonly storyId: string,
    readonly userID: string,
    readonly index: number,
  ) {}
}
