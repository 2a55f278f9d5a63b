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
import { PictureRunner } from '../src/pictures/picture.runner';
import { PICTURE_BUCKET, PictureFileRepository } from '../src/pictures/picture-file.repository';
import { createDiskApp, startDiskStandIn } from './support/start-disk-stand-in';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { bytes } from './support/pictures-suite';

// `pnpm start` without MONGODB_URI keeps the stand-in's data on disk (its in-memory engine and a
// journal). GridFS files must come back whole from there, also after the database went down.
describe('pictures on the embedded stand-in with data on disk', () => {
  let database: DatabaseHandle;
  let app: INestApplication;
  let stub: OpenAIStub;
  let dataDir: string;
  const start = async () => {
    database = await startDiskStandIn(join(dataDir, 'db'));
    app = await createDiskApp(database, dataDir, {
      MODELS_JSON: JSON.stringify([{ value: 'free', baseURL: stub.baseURL }]),
      IMAGES_PROVIDER: 'openai',
      IMAGES_BASE_URL: stub.baseURL,
      IMAGES_MODEL: 'stub-image-1',
    });
  };
  const stop = async () => {
    await app?.get(PictureRunner).drain();
    await app?.close();
    await database?.stop();
  };
  const http = () => request(app.getHttpServer());
  const image = (auth: string, id: string) =>
    http()
      .get(`/api/images/${id}`)
      .set('Authorization', auth)
      .buffer(true)
      .parse(bytes);

  beforeAll(async () => {
    stub = await startOpenAIStub();
    dataDir = mkdtempSync(join(tmpdir(), 'taleloom-disk-'));
    await start();
  });
  afterAll(async () => {
    await stop();
    await stub?.close();
  });

  it('stores pictures in GridFS there and serves them whole after the database was killed and restarted', async () => {
    const login = await http().post('/api/user/login').send({ type: 'username', userName: 'disk', password: 'secret1' });
    const auth = `Bearer ${login.body.data.token}`;
    const created = await http().post('/api/llm').set('Authorization', auth).send({ prologue_and_characters: 'Mara waits at the pier.', settings_pic_size: '512*768' });
    const id = created.body.data.id as string;
    // Two at once: neither write may be lost.
    const asked = await Promise.all([
      http().post(`/api/llm/${id}/pictures`).set('Authorization', auth).send({ from: 0, to: 4 } satisfies RequestPictureDto),
      http().post(`/api/llm/${id}/pictures`).set('Authorization', auth).send({ from: 5, to: 10 } satisfies RequestPictureDto),
    ]);
    expect(asked.map((r) => r.status)).toEqual([202, 202]);
    await app.get(PictureRunner).drain();
    const listed = (await http().get(`/api/llm/${id}/pictures`).set('Authorization', auth)).body.data.pictures as StoryPicture[];
    expect(listed.map((p) => p.status)).toEqual(['ready', 'ready']);
    const before = await Promise.all(listed.map((p) => image(auth, p.id)));
    for (const file of before) expect(imageDimensions(file.body as Buffer)).toEqual({ width: 512, height: 768 });
    const db = app.get<Connection>(getConnectionToken()).db!;
    expect(await db.collection(`${PICTURE_BUCKET}.files`).countDocuments({})).toBe(2);
    // And a file of several chunks.
    const big = Buffer.alloc(700_000, 3);
    big.write('the middle', 350_000);
    await app.get(PictureFileRepository).put('65f0c0ffee0123456789abce', big, { storyId: id, userID: 'u', contentType: 'image/png', width: 1, height: 1, demo: false });

    // The stand-in is killed (SIGKILL) and started again on the same folder.
    await stop();
    await start();
    for (const [i, picture] of listed.entries()) {
      const after = await image(auth, picture.id);
      expect(after.status).toBe(200);
      expect((after.body as Buffer).equals(before[i].body as Buffer)).toBe(true);
    }
    expect((await app.get(PictureFileRepository).get('65f0c0ffee0123456789abce'))!.data.equals(big)).toBe(true);
  });
});
