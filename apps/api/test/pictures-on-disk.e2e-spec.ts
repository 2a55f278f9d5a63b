import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { RequestPictureDto, StoryPicture } from '@taleloom/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import request from 'supertest';
import type { DatabaseHandle } from '../src/database/embedded-database';
import { imageDimensions } from '../src/pictures/image-provider';
import { PictureRunner } from '../src/pictures/picture-runner';
import { PICTURE_BUCKET, PictureStore } from '../src/pictures/picture-store';
import { createDiskApp, startDiskStandIn } from './support/start-disk-stand-in';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';

// `pnpm start` without MONGODB_URI keeps the stand-in's data on disk. There GridFSBucket cannot work
// (a lost chunk insert, ObjectIds and binary data handed back as strings): the store writes the same
// GridFS documents itself, one at a time. This runs pictures on it.
describe('pictures on the embedded stand-in with data on disk', () => {
  let database: DatabaseHandle;
  let app: INestApplication;
  let stub: OpenAIStub;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    stub = await startOpenAIStub();
    const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-disk-'));
    database = await startDiskStandIn(join(dataDir, 'db'));
    app = await createDiskApp(database, dataDir, {
      MODELS_JSON: JSON.stringify([{ value: 'free', baseURL: stub.baseURL }]),
      IMAGES_PROVIDER: 'openai',
      IMAGES_BASE_URL: stub.baseURL,
      IMAGES_MODEL: 'stub-image-1',
    });
  });
  afterAll(async () => {
    await app?.get(PictureRunner).drain();
    await app?.close();
    await database?.stop();
    await stub?.close();
  });

  it('stores, lists and serves pictures there, in GridFS-shaped collections', async () => {
    expect(app.get(PictureStore).compatibilityMode).toBe(true);
    const login = await http().post('/api/user/login').send({ type: 'username', userName: 'disk', password: 'secret1' });
    const auth = `Bearer ${login.body.data.token}`;
    const created = await http().post('/api/llm').set('Authorization', auth).send({ prologue_and_characters: 'Mara waits at the pier.', settings_pic_size: '512*768' });
    const id = created.body.data.id as string;
    // Two at once: their writes must not lose each other.
    const asked = await Promise.all([
      http().post(`/api/llm/${id}/pictures`).set('Authorization', auth).send({ from: 0, to: 4 } satisfies RequestPictureDto),
      http().post(`/api/llm/${id}/pictures`).set('Authorization', auth).send({ from: 5, to: 10 } satisfies RequestPictureDto),
    ]);
    expect(asked.map((r) => r.status)).toEqual([202, 202]);
    await app.get(PictureRunner).drain();
    const pictures = (await http().get(`/api/llm/${id}/pictures`).set('Authorization', auth)).body.data.pictures as StoryPicture[];
    expect(pictures.map((p) => p.status)).toEqual(['ready', 'ready']);
    for (const picture of pictures) {
      const file = await http().get(`/api/images/${picture.id}`).set('Authorization', auth).buffer(true).parse((res, cb) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => cb(null, Buffer.concat(parts)));
      });
      expect(file.status).toBe(200);
      expect(imageDimensions(file.body as Buffer)).toEqual({ width: 512, height: 768 });
    }
    const db = app.get<Connection>(getConnectionToken()).db!;
    expect(await db.collection(`${PICTURE_BUCKET}.files`).countDocuments({})).toBe(2);
    const chunks = await db.collection(`${PICTURE_BUCKET}.chunks`).find({}).project({ n: 1 }).toArray();
    expect(chunks.length).toBeGreaterThanOrEqual(2);

    // A file of several chunks.
    const store = app.get(PictureStore);
    const big = Buffer.alloc(700_000, 3);
    await store.put('65f0c0ffee0123456789abce', big, { storyId: id, userID: 'u', contentType: 'image/png', width: 1, height: 1, demo: false });
    expect((await store.get('65f0c0ffee0123456789abce'))!.data.equals(big)).toBe(true);
    await store.delete('65f0c0ffee0123456789abce');
    expect(await store.get('65f0c0ffee0123456789abce')).toBeNull();
  });
});
