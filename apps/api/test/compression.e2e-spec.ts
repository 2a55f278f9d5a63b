import type { UpdateStoryDto } from '@taleloom/contracts';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COMPRESS_MIN_BYTES } from '../src/app.factory';
import { rawRequest } from './support/raw-http';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

// Long reads (a story's whole text) go compressed to a browser that accepts it; everything else is
// sent as it is. Answers are read as raw bytes (support/raw-http.ts).

/** A long text of no repeating pattern, in English and Chinese, as a long story is. */
function longText(chars: number): string {
  const words = ['harbour', 'lamp', 'tide', 'Mara', 'bell', 'coin', '雨', '灯塔', '渡轮', '码头', '船长', 'customs', 'night', '潮水'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const w = `${words[next() % words.length]}${next() % 10 === 0 ? '.\n' : ' '}`;
    out.push(w);
    n += w.length;
  }
  return out.join('').slice(0, chars);
}

describe('long reads are compressed for browsers that accept it', () => {
  let t: TestApp;
  let server: Server;
  let alice: TestUser;
  let bob: TestUser;
  let storyId: string;
  const text = longText(300_000);

  beforeAll(async () => {
    t = await createTestApp();
    server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
    storyId = await createStory(t, alice);
    const saved = await as(t, alice).patch(`/api/llm?id=${storyId}`, { main_text: text } satisfies UpdateStoryDto);
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A request as `user` (a GET, or a POST of `body` as JSON), answered as the raw bytes sent. */
  const raw = (path: string, user: TestUser | null, encoding?: string, body?: object) =>
    rawRequest(
      (server.address() as AddressInfo).port,
      path,
      { ...(user ? { Authorization: `Bearer ${user.token}` } : {}), ...(encoding ? { 'Accept-Encoding': encoding } : {}) },
      body,
    );

  it('sends a long story gzip- or brotli-compressed, the same JSON in a fraction of the bytes', async () => {
    const plain = await raw(`/api/llm?id=${storyId}`, alice);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const story = JSON.parse(plain.body.toString('utf8')) as { data: { main_text: string } };
    expect(story.data.main_text).toBe(text);

    const gzip = await raw(`/api/llm?id=${storyId}`, alice, 'gzip, deflate');
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(String(gzip.headers.vary)).toMatch(/accept-encoding/i);
    expect(gzip.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(story);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 2);

    const br = await raw(`/api/llm?id=${storyId}`, alice, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(story);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
  });

  it('sends short answers, refusals and streams as they are', async () => {
    const info = await raw('/api/user/user-info', alice, 'gzip, br');
    expect(info.status).toBe(200);
    expect(info.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(info.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(info.body.toString('utf8')).data.userID).toBe(alice.userID);

    // Another user's story is refused exactly as before, whatever the encoding asked for.
    const plainRefusal = await raw(`/api/llm?id=${storyId}`, bob);
    const refusal = await raw(`/api/llm?id=${storyId}`, bob, 'gzip, br');
    expect(refusal.status).toBe(plainRefusal.status);
    expect(refusal.status).toBeGreaterThanOrEqual(400);
    expect(refusal.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refusal.body.toString('utf8')).code).toBe(JSON.parse(plainRefusal.body.toString('utf8')).code);

    // A send's stream (a POST) is never compressed: each event must reach the page as it is written.
    const stream = await raw(`/api/llm/${storyId}`, alice, 'gzip, br', { content: 'The lamp turns.' });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body.toString('utf8')).toContain('"type":"done"');
  });
});
