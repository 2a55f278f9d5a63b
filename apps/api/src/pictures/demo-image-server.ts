import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalServer, type LocalServer } from '../models/local-server';
import { DemoPictureThread } from './demo-picture-thread';

export type DemoImageServer = LocalServer;

// Larger requests are refused: the demo draws at most 2048 pixels a side.
const MAX_SIDE = 2048;
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The offline demo picture generator behind an OpenAI-compatible `POST /v1/images/generations` on
 * 127.0.0.1, so demo pictures take exactly the SDK path a real images endpoint does.
 */
export async function startDemoImageServer(): Promise<DemoImageServer> {
  // The drawing is on a thread of its own (see DemoPictureThread), stopped with the server.
  const thread = new DemoPictureThread();
  const server = await startLocalServer((req, res) =>
    handle(thread, req, res).catch(() => json(res, 500, { error: { message: 'demo generator failed', type: 'server_error' } })),
  );
  return {
    ...server,
    close: async () => {
      await server.close();
      await thread.close();
    },
  };
}

async function handle(thread: DemoPictureThread, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST' || !req.url?.endsWith('/images/generations')) {
    return json(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
  }
  let body: { prompt?: unknown; size?: unknown };
  try {
    body = JSON.parse(await readBody(req)) as typeof body;
  } catch {
    return json(res, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
  }
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  const size = /^(\d{2,4})x(\d{2,4})$/.exec(typeof body.size === 'string' ? body.size : '1024x1024');
  const width = Number(size?.[1] ?? 0);
  const height = Number(size?.[2] ?? 0);
  if (!prompt.trim() || !size || width > MAX_SIDE || height > MAX_SIDE) {
    return json(res, 400, { error: { message: 'a prompt and a size WIDTHxHEIGHT up to 2048 are required', type: 'invalid_request_error' } });
  }
  const png = await thread.render(prompt, width, height);
  json(res, 200, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: png.toString('base64'), revised_prompt: prompt }] });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function json(res: ServerResponse, status: number, payload: object): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(payload));
}
