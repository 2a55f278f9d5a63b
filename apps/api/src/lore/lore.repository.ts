import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { LoreEntry, LoreSettings } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { BatchedReads } from '../common/batched-reads';
import { isDuplicateKey } from '../common/database-errors';
import { archiveSlotId } from '../stories/archive-slot-id';
import { StoryLore, StoryLoreArchive } from './lore.schema';

/** A story's lore as stored (version 0 and no entries when it has none yet). */
export interface LoreRecord {
  version: number;
  settings: LoreSettings;
  entries: LoreEntry[];
}

/**
 * The `story_lore` and `story_lore_archives` collections: a story's lore, and its copies in save slots
 * and the public version. Every write is one single-document (conditional) update.
 */
@Injectable()
export class LoreRepository {
  // The version reads of every send in one turn of the event loop: one command.
  private readonly versions: BatchedReads<{ _id: Types.ObjectId; version?: number }>;

  constructor(
    @InjectModel(StoryLore.name) private readonly lore: Model<StoryLore>,
    @InjectModel(StoryLoreArchive.name) private readonly archives: Model<StoryLoreArchive>,
  ) {
    this.versions = new BatchedReads(
      (ids) => this.lore.collection.find({ _id: { $in: ids } }, { projection: { version: 1 } }).toArray() as Promise<{ _id: Types.ObjectId; version?: number }[]>,
    );
  }

  /** The story's lore; null when it has none. */
  find(storyId: Types.ObjectId): Promise<LoreRecord | null> {
    // The native driver: this read runs beside every send's claim.
    return this.lore.collection.findOne({ _id: storyId }, { projection: { version: 1, settings: 1, entries: 1 } }) as Promise<LoreRecord | null>;
  }

  /** Only the version (what a send checks its cached lore against); null when there is no lore. */
  async version(storyId: Types.ObjectId): Promise<number | null> {
    const doc = await this.versions.get(storyId);
    return doc ? Number(doc.version ?? 0) : null;
  }

  /**
   * Writes the lore if it is still at `expected` (0: none yet, created here); answers false when
   * someone wrote in between (the caller reads again and retries).
   */
  async write(storyId: Types.ObjectId, userID: string, expected: number, next: Omit<LoreRecord, 'version'>): Promise<boolean> {
    try {
      const written = await this.lore.collection.findOneAndUpdate(
        { _id: storyId, userID, version: expected },
        { $set: { settings: next.settings, entries: next.entries, version: expected + 1, updatedAt: new Date() }, $setOnInsert: { createdAt: new Date() } },
        { upsert: expected === 0, returnDocument: 'after', projection: { _id: 1 } },
      );
      return Boolean(written);
    } catch (error) {
      // The upsert's insert met an existing document: someone created it in between.
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Copies the story's lore into a slot (-1: the public version), replacing what the slot held. */
  async snapshot(storyId: Types.ObjectId, index: number): Promise<void> {
    const live = await this.find(storyId);
    const hex = storyId.toHexString();
    await this.archives
      .updateOne(
        { _id: archiveSlotId(hex, index) },
        { $set: { story_id: hex, archive_index: index, settings: live?.settings ?? null, entries: live?.entries ?? [] } },
        { upsert: true },
      )
      .exec();
  }

  /** The lore a slot holds; null when the slot was saved without lore (before stories had any). */
  async slot(storyId: string, index: number): Promise<Omit<LoreRecord, 'version'> | null> {
    const doc = await this.archives.findById(archiveSlotId(storyId, index), { settings: 1, entries: 1 }).lean().exec();
    return doc ? { settings: doc.settings, entries: doc.entries ?? [] } : null;
  }

  async deleteSlot(storyId: string, index: number): Promise<void> {
    await this.archives.deleteOne({ _id: archiveSlotId(storyId, index) }).exec();
  }
}
