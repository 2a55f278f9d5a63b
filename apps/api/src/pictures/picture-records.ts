import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { DATABASE_HANDLE } from '../database/database.module';
import type { DatabaseHandle } from '../database/embedded-database';
import { Picture } from './picture.schema';

/**
 * Reads and writes of the drawings (`story_pictures`). Each is a single-document operation; a
 * drawing's writes match on its pending state, so a late one changes nothing. On the on-disk stand-in,
 * which rewrites a whole collection per write, this module is the collection's only writer and runs
 * its operations one at a time.
 */
@Injectable()
export class PictureRecords {
  private readonly serialize: boolean;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    @InjectModel(Picture.name) private readonly pictures: Model<Picture>,
    @Optional() @Inject(DATABASE_HANDLE) database?: DatabaseHandle,
  ) {
    this.serialize = database?.writesNotAtomic === true;
  }

  insert(picture: Picture): Promise<unknown> {
    return this.op(() => this.pictures.create(picture));
  }

  findOne(id: string): Promise<Picture | null> {
    if (!isHexId(id)) return Promise.resolve(null);
    return this.op(() => this.pictures.findById(new Types.ObjectId(id)).lean().exec()) as Promise<Picture | null>;
  }

  /** The drawings of these ids, by hex id. */
  async findMany(ids: readonly string[]): Promise<Map<string, Picture>> {
    const valid = ids.filter(isHexId).map((id) => new Types.ObjectId(id));
    if (valid.length === 0) return new Map();
    const rows = (await this.op(() => this.pictures.find({ _id: { $in: valid } }).lean().exec())) as Picture[];
    return new Map(rows.map((p) => [String(p._id), p]));
  }

  /** How many drawings asked for on this story are running (pending since `startedAfter`). */
  countDrawing(storyId: string, startedAfter: number): Promise<number> {
    return this.op(() => this.pictures.countDocuments({ storyId, status: 'pending', startedAt: { $gte: startedAfter } }).exec());
  }

  /** Changes a drawing that is still pending; false when it is not (any more). */
  async updatePending(id: string, set: Partial<Picture>): Promise<boolean> {
    const result = await this.op(() =>
      this.pictures.updateOne({ _id: new Types.ObjectId(id), status: 'pending' }, { $set: { ...set, updatedAt: Date.now() } }).exec(),
    );
    return result.matchedCount === 1;
  }

  private op<T>(run: () => Promise<T>): Promise<T> {
    if (!this.serialize) return run();
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

export const isHexId = (id: unknown): id is string => typeof id === 'string' && /^[0-9a-f]{24}$/i.test(id);
