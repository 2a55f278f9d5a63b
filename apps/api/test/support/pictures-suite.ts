import type { AcceptTurnDto, ExportDto, StoryPicture, UpdateStoryDto } from '@taleloom/contracts';
import request from 'supertest';
import { PictureRunner } from '../../src/pictures/picture.runner';
import { PowerService } from '../../src/power/power.service';
import { unzip } from '../file-factories';
import { as, createStory, type TestUser } from '../story-factories';
import type { TestApp } from '../test-app';
import { sendTurn, unthrottle } from './play-helpers';
import { stubAppSuite } from './stub-app-suite';

export const PRICE = 30;

// A supertest parser that answers the body as bytes (pictures, exported files).
export const bytes: Parameters<request.Test['parse']>[0] = (res, cb) => {
  const parts: Buffer[] = [];
  res.on('data', (d: Buffer) => parts.push(d));
  res.on('end', () => cb(null, Buffer.concat(parts)));
};

// POST /api/export, answered as bytes.
export const exportFile = (t: TestApp, user: TestUser, body: ExportDto) => as(t, user).post('/api/export', body).buffer(true).parse(bytes);

// A Word document's paragraphs in order: their text, and whether they hold a picture.
export async function docxParagraphs(docx: Buffer): Promise<{ text: string; picture: boolean }[]> {
  const xml = (await unzip(docx)).find((e) => e.name === 'word/document.xml')!.data.toString('utf8');
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map(([p]) => ({
    text: [...p.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''),
    picture: p.includes('<w:drawing>'),
  }));
}

const drainPictures = (t: TestApp) => t.app.get(PictureRunner).drain();

/**
 * The hooks and helpers of the picture suites: the stub as the free story model and as the images
 * endpoint (IMAGES_POINTS = PRICE), alice with 1,000 power and bob.
 */
export function picturesSuite() {
  const s = stubAppSuite({
    env: (stub) => ({
      MODELS_JSON: JSON.stringify([{ label: 'Free', value: 'free', points: 0, contextWindow: 4096, maxOutput: 200, baseURL: stub.baseURL }]),
      IMAGES_PROVIDER: 'openai',
      IMAGES_BASE_URL: stub.baseURL,
      IMAGES_MODEL: 'stub-image-1',
      IMAGES_POINTS: String(PRICE),
      IMAGES_SIZE_MAP: JSON.stringify({ '1024*1024': '1024x1024', '512*1024': '512x1024' }),
      // The operator allows the loopback address the stub listens on (a custom model test).
      CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
    }),
    drain: drainPictures,
    drainFirst: true,
    each: ({ alice }) => grant(alice, 1000),
  });
  const drain = () => drainPictures(s.t);
  const grant = (user: TestUser, amount: number) => s.t.app.get(PowerService).grant(user.userID, amount, 'test', `grant-${Math.random()}`);
  const list = async (user: TestUser, id: string) => (await as(s.t, user).get(`/api/llm/${id}/pictures`)).body.data.pictures as StoryPicture[];
  const image = (user: TestUser | null, id: string) => {
    const req = request(s.t.app.getHttpServer()).get(`/api/images/${id}`);
    if (user) req.set('Authorization', `Bearer ${user.token}`);
    return req.buffer(true).parse(bytes);
  };
  // Sends a line on the free stub model and accepts the reply: the accepted passage is illustrated.
  const playTurn = async (user: TestUser, id: string, line = 'I wave at the ferry.') => {
    await unthrottle(s.t, id);
    const res = await sendTurn(s.base, user.token, id, { role: 'Mara', content: line, model_name: 'free' });
    const turnId = (res.events.at(-1) as { turnId: string }).turnId;
    const reply = res.events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
    const accepted = await as(s.t, user).post(`/api/llm/${id}/accept`, { userContent: `Mara: ${line}`, newContent: reply, turnId } satisfies AcceptTurnDto);
    expect(accepted.status).toBe(200);
    return accepted.body.data as { charCount: number; appended: string };
  };
  const newStory = (user: TestUser, settings: Partial<UpdateStoryDto> = {}) =>
    createStory(s.t, user, { prologue_and_characters: 'Mara: a ferry pilot who waits at the pier.\nThe ferry is late.', ...settings });

  return Object.assign(s, { drain, grant, list, image, playTurn, newStory });
}
