import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { isHexId } from '../common/object-id';
import { Picture } from './picture.schema';

/**
 * The `story_pictures` collection: the drawings. Each operation is single-document; a drawing's
 * writes match on its pending state, so a late one changes nothing.
 */
@Injectable()
export class PictureRepository {
  constructor(@InjectModel(Picture.name) private readonly pictures: Model<Picture>) {}

  insert(picture: Picture): Promise<unknown> {
    return this.pictures.create(picture);
  }

  async findOne(id: string): Promise<Picture | null> {
    if (!isHexId(id)) return null;
    return (await this.pictures.findById(new Types.ObjectId(id)).lean().exec()) as Picture | null;
  }

  /** The drawings of these ids, by hex id. */
  async findMany(ids: readonly string[]): Promise<Map<string, Picture>> {
    const valid = ids.filter(isHexId).map((id) => new Types.ObjectId(id));
    if (valid.length === 0) return new Map();
    const rows = (await this.pictures.find({ _id: { $in: valid } }).lean().exec()) as Picture[];
    return new Map(rows.map((p) => [String(p._id), p]));
  }

  /** How many drawings asked for on this story are running (pending since `startedAfter`). */
  countDrawing(storyId: string, startedAfter: number): Promise<number> {
    return this.pictures.countDocuments({ storyId, status: 'pending', startedAt: { $gte: startedAfter } }).exec();
  }

  /** Changes a drawing that is still pending; false when it is not (any more). */
  async updatePending(id: string, set: Partial<Picture>): Promise<boolean> {
    const result = await this.pictures
      .updateOne({ _id: new Types.ObjectId(id), status: 'pending' }, { $set: { ...set, updatedAt: Date.now() } })
      .exec();
    return result.matchedCount === 1;
  }
}
