import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { mongo, Types, type Connection } from 'mongoose';
import { isHexId } from '../common/object-id';

/** GridFS bucket of story pictures: collections `pictures.files` and `pictures.chunks` (owned here). */
export const PICTURE_BUCKET = 'pictures';
// GridFS's default chunk size.
const CHUNK_BYTES = 255 * 1024;

export interface PictureFileMeta {
  storyId: string;
  userID: string;
  contentType: string;
  width: number;
  height: number;
  demo: boolean;
}

export interface PictureFile {
  data: Buffer;
  contentType: string;
  length: number;
}

/** Picture files in MongoDB GridFS, through the driver's GridFSBucket. A file's id is its picture's id. */
@Injectable()
export class PictureFileRepository {
  private readonly bucket: mongo.GridFSBucket;

  constructor(@InjectConnection() connection: Connection) {
    this.bucket = new mongo.GridFSBucket(connection.db as unknown as mongo.Db, { bucketName: PICTURE_BUCKET, chunkSizeBytes: CHUNK_BYTES });
  }

  /** Stores a picture as the file `fileId` (hex; the picture's id). */
  async put(fileId: string, data: Buffer, meta: PictureFileMeta): Promise<void> {
    const filename = `${fileId}.${extensionOf(meta.contentType)}`;
    await new Promise<void>((done, fail) => {
      const upload = this.bucket.openUploadStreamWithId(new Types.ObjectId(fileId), filename, { metadata: meta });
      upload.once('finish', () => done());
      upload.once('error', fail);
      upload.end(data);
    });
  }

  /** The stored picture, or null when there is none. */
  async get(fileId: string): Promise<PictureFile | null> {
    if (!isHexId(fileId)) return null;
    const id = new Types.ObjectId(fileId);
    const [file] = await this.bucket.find({ _id: id }, { limit: 1 }).toArray();
    if (!file) return null;
    const parts: Buffer[] = [];
    await new Promise<void>((done, fail) => {
      this.bucket.openDownloadStream(id).on('data', (c: Buffer) => parts.push(c)).once('end', () => done()).once('error', fail);
    });
    const data = Buffer.concat(parts);
    const meta = file.metadata as Partial<PictureFileMeta> | undefined;
    return { data, contentType: typeof meta?.contentType === 'string' ? meta.contentType : 'image/png', length: data.length };
  }

  /** Removes a stored picture. */
  async delete(fileId: string): Promise<void> {
    if (isHexId(fileId)) await this.bucket.delete(new Types.ObjectId(fileId)).catch(() => undefined);
  }
}

function extensionOf(contentType: string): string {
  return { 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }[contentType] ?? 'png';
}
