import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { Types } from 'mongoose';
import { ArchiveLoaded, ArchiveSaved } from '../archives/archive.events';
import { StoryCreated, StoryPublished, StoryUnpublished } from '../stories/story.events';
import { LoreService } from './lore.service';

/** The lore follows its story: a new story's lore, clones, the public version and save slots. Each is awaited by the request. */
@Injectable()
export class LoreListener {
  constructor(private readonly lore: LoreService) {}

  @OnEvent(StoryCreated.event, { suppressErrors: false })
  async created(event: StoryCreated): Promise<void> {
    const id = new Types.ObjectId(event.id);
    if (event.lore?.entries?.length) await this.lore.start(id, event.userID, event.lore);
    else if (event.origin) await this.lore.copy(event.origin, id, event.userID);
    else this.lore.none(id);
  }

  @OnEvent(StoryPublished.event, { suppressErrors: false })
  async published(event: StoryPublished): Promise<void> {
    await this.lore.snapshot(event.id, -1);
  }

  @OnEvent(StoryUnpublished.event, { suppressErrors: false })
  async unpublished(event: StoryUnpublished): Promise<void> {
    await this.lore.dropSnapshot(event.id, -1);
  }

  @OnEvent(ArchiveSaved.event, { suppressErrors: false })
  async saved(event: ArchiveSaved): Promise<void> {
    await this.lore.snapshot(event.storyId, event.index);
  }

  @OnEvent(ArchiveLoaded.event, { suppressErrors: false })
  async loaded(event: ArchiveLoaded): Promise<void> {
    await this.lore.restore(event.storyId, event.userID, event.index);
  }
}
