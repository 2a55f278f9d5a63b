// Run with `node --allow-natives-syntax -r @swc-node/register test/support/shapes-probe.ts <shared|plain>`:
// serves 20 requests through Nest's Express adapter (the app's SharedShapesExpressAdapter, or Nest's own)
// and prints, as JSON, whether the requests and responses were made with Express's prototypes, how many
// hidden classes (V8 maps) they ended with, how many still have fast properties (not a dictionary),
// and one answer. A process of its own: what a test worker ran
// before (its other files' servers and objects) must not count.
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Request, Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SharedShapesExpressAdapter } from '../../src/common/express-adapter';

const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const fastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
// An object whose map was deprecated since (a field's representation generalised) is moved to the current one.
const migrate = new Function('o', '%TryMigrateInstance(o)') as (o: object) => void;
const shapes = (objects: object[]) => {
  objects.forEach(migrate);
  return objects.reduce<object[]>((kinds, o) => (kinds.some((k) => sameMap(k, o)) ? kinds : [...kinds, o]), []).length;
};

async function main(): Promise<void> {
  const adapter = process.argv[2] === 'plain' ? new ExpressAdapter() : new SharedShapesExpressAdapter();
  adapter.initHttpServer({});
  const app = adapter.getInstance<Express>();
  const server = adapter.getHttpServer() as Server;
  const bornWith: boolean[] = [];
  // Before Express's own listener: the prototypes the objects were made with.
  server.prependListener('request', (req, res) => bornWith.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response));
  const seen: { req: Request; res: Response }[] = [];
  // A middleware adding properties, as the app's do.
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
  for (let i = 0; i < 20; i++) answers.push(await (await fetch(`http://127.0.0.1:${port}/item/${i}?q=x`)).json());
  await new Promise((resolve) => server.close(resolve));
  process.stdout.write(
    JSON.stringify({
      bornWith,
      answer: answers[7],
      reqShapes: shapes(seen.map((s) => s.req)),
      resShapes: shapes(seen.map((s) => s.res)),
      fastReqs: seen.filter((s) => fastProperties(s.req)).length,
      fastRess: seen.filter((s) => fastProperties(s.res)).length,
    }),
  );
}

void main();
