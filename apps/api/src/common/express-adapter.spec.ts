import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Request, Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { SharedShapesExpressAdapter } from './express-adapter';

// V8's own answer to whether two objects have the same hidden class (map).
setFlagsFromString('--allow-natives-syntax');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const shapes = (objects: object[]) => objects.reduce<object[]>((kinds, o) => (kinds.some((k) => sameMap(k, o)) ? kinds : [...kinds, o]), []).length;

// Serves `n` requests through the adapter's server and Express (a middleware adding properties, as the
// app's do), and answers what the route saw.
async function serve(adapter: ExpressAdapter, n: number) {
  adapter.initHttpServer({});
  const app = adapter.getInstance<Express>();
  const server = adapter.getHttpServer() as Server;
  const bornWith: boolean[] = [];
  // Before Express's own listener: the prototypes the objects were made with.
  server.prependListener('request', (req, res) => bornWith.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response));
  const seen: { req: Request; res: Response }[] = [];
  app.use((req: Request & { added?: unknown }, res: Response & { added?: unknown }, next: () => void) => {
    req.added = { at: Date.now() };
    res.added = () => undefined;
    next();
  });
  app.get('/item/:id', (req, res) => {
    seen.push({ req, res });
    res.json({ id: req.params.id, query: req.query.q });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const answers: unknown[] = [];
  try {
    for (let i = 0; i < n; i++) answers.push(await (await fetch(`http://127.0.0.1:${port}/item/${i}?q=x`)).json());
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return { bornWith, answers, reqShapes: shapes(seen.map((s) => s.req)), resShapes: shapes(seen.map((s) => s.res)) };
}

describe('SharedShapesExpressAdapter', () => {
  it('makes requests and responses with Express\'s prototypes, so that they share one shape', async () => {
    const { bornWith, answers, reqShapes, resShapes } = await serve(new SharedShapesExpressAdapter(), 20);
    expect(bornWith).toEqual(Array(20).fill(true));
    expect(reqShapes).toBe(1);
    expect(resShapes).toBe(1);
    // Express works as before on them (params, query, res.json).
    expect(answers[7]).toEqual({ id: '7', query: 'x' });
  });

  it('is what Nest\'s own adapter does not: there each request and response has a shape of its own', async () => {
    const { bornWith, reqShapes, resShapes } = await serve(new ExpressAdapter(), 20);
    expect(bornWith.some(Boolean)).toBe(false);
    expect(reqShapes).toBeGreaterThan(10);
    expect(resShapes).toBeGreaterThan(10);
  });
});
