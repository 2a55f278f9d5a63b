import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { mongo, Types, type Connection } from 'mongoose';
import { DATABASE_HANDLE } from '../database/database.module';
import type { DatabaseHandle } from '../database/embedded-database';

/** GridFS bucket of story pictures: collections `pictures.files` and `pictures.chunks`. */
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

interface FileDoc {
  _id: Types.ObjectId;
  length: number;
  chunkSize: number;
  uploadDate: Date;
  filename: string;
  metadata?: Partial<PictureFileMeta>;
}

interface ChunkDoc {
  _id: Types.ObjectId;
  files_id: Types.ObjectId | string;
  n: number;
  data: mongo.Binary | string | Buffer;
}

/**
 * Picture files in MongoDB GridFS. On MongoDB (and the in-memory stand-in) this is the driver's
 * GridFSBucket. The stand-in keeping data on disk loses one of several concurrent chunk inserts and
 * hands back ObjectIds as hex strings and binary data as base64 strings, which GridFSBucket cannot
 * read; there the same GridFS documents are written one at a time and read tolerantly.
 */
@Injectable()
export class PictureStore {
  private readonly logger = new Logger('PictureStore');
  private readonly bucket: mongo.GridFSBucket;
  private readonly files: mongo.Collection<FileDoc>;
  private readonly chunks: mongo.Collection<ChunkDoc>;
  /** True on the on-disk stand-in: GridFS documents are written and read by this class, serially. */
  readonly compatibilityMode: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  private indexes?: Promise<void>;

  constructor(
    @InjectConnection() connection: Connection,
    @Optional() @Inject(DATABASE_HANDLE) database?: DatabaseHandle,
  ) {
    const db = connection.db as unknown as mongo.Db;
    this.bucket = new mongo.GridFSBucket(db, { bucketName: PICTURE_BUCKET, chunkSizeBytes: CHUNK_BYTES });
    this.files = db.collection<FileDoc>(`${PICTURE_BUCKET}.files`);
    this.chunks = db.collection<ChunkDoc>(`${PICTURE_BUCKET}.chunks`);
    this.compatibilityMode = database?.writesNotAtomic === true;
  }

  /** Stores a picture as the file `fileId` (hex; the picture's id). */
  async put(fileId: string, data: Buffer, meta: PictureFileMeta): Promise<void> {
    const id = new Types.ObjectId(fileId);
    const filename = `${fileId}.${extensionOf(meta.contentType)}`;
    if (!this.compatibilityMode) {
      await new Promise<void>((done, fail) => {
        const upload = this.bucket.openUploadStreamWithId(id, filename, { metadata: meta });
        upload.once('finish', () => done());
        upload.once('error', fail);
        upload.end(data);
      });
      return;
    }
    await this.serial(async () => {
      await this.ensureIndexes();
      // As GridFS does: the chunks first, the file document last, so a file is never seen half-written.
      for (let n = 0, at = 0; at < data.length || n === 0; n++, at += CHUNK_BYTES) {
        await this.chunks.insertOne({ _id: new Types.ObjectId(), files_id: id, n, data: new mongo.Binary(data.subarray(at, at + CHUNK_BYTES)) });
      }
      await this.files.insertOne({ _id: id, length: data.length, chunkSize: CHUNK_BYTES, uploadDate: new Date(), filename, metadata: meta });
    });
  }

  /** The stored picture, or null when there is none (or it is incomplete). */
  async get(fileId: string): Promise<PictureFile | null> {
    if (!Types.ObjectId.isValid(fileId) || !/^[0-9a-f]{24}$/i.test(fileId)) return null;
    const id = new Types.ObjectId(fileId);
    if (!this.compatibilityMode) {
      const [file] = await this.bucket.find({ _id: id }, { limit: 1 }).toArray();
      if (!file) return null;
      const parts: Buffer[] = [];
      await new Promise<void>((done, fail) => {
        this.bucket.openDownloadStream(id).on('data', (c: Buffer) => parts.push(c)).once('end', () => done()).once('error', fail);
      });
      const data = Buffer.concat(parts);
      return { data, contentType: contentTypeOf(file.metadata), length: data.length };
    }
    return this.serial(async () => {
      const file = await this.files.findOne({ _id: id });
      if (!file) return null;
      const chunks = await this.chunks
        .find({ files_id: { $in: [id, fileId] } } as mongo.Filter<ChunkDoc>)
        .sort({ n: 1 })
        .toArray();
      const data = Buffer.concat(chunks.map((c) => bytesOf(c.data)));
      if (data.length !== Number(file.length)) {
        this.logger.error(`picture file ${fileId} is incomplete (${data.length} of ${file.length} bytes)`);
        return null;
      }
      return { data, contentType: contentTypeOf(file.metadata), length: data.length };
    });
  }

  /** Removes a stored picture (a drawing whose result nobody can see any more). */
  async delete(fileId: string): Promise<void> {
    if (!/^[0-9a-f]{24}$/i.test(fileId)) return;
    const id = new Types.ObjectId(fileId);
    if (!this.compatibilityMode) {
      await this.bucket.delete(id).catch(() => undefined);
      return;
    }
    await this.serial(async () => {
      await this.files.deleteOne({ _id: id });
      await this.chunks.deleteMany({ files_id: { $in: [id, fileId] } } as mongo.Filter<ChunkDoc>);
    });
  }

  // The indexes GridFSBucket creates, for the documents this class writes itself.
  private ensureIndexes(): Promise<void> {
    this.indexes ??= (async () => {
      await this.files.createIndex({ filename: 1, uploadDate: 1 });
      await this.chunks.createIndex({ files_id: 1, n: 1 }, { unique: true });
    })().catch((error: unknown) => {
      this.indexes = undefined;
      throw error;
    });
    return this.indexes;
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function bytesOf(data: ChunkDoc['data']): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'base64');
  if (Buffer.isBuffer(data)) return data;
  return Buffer.from(data.buffer);
}

function contentTypeOf(meta: Partial<PictureFileMeta> | undefined): string {
  return typeof meta?.contentType === 'string' ? meta.contentType : 'image/png';
}

function extensionOf(contentType: string): string {
  return { 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }[contentType] ?? 'png';
}
