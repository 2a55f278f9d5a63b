import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

// Kept because measured (docs/performance.md, the same-run table): batched reads, batched writes and shared
// request shapes, turned off together, made a stream cost 53.0 ms of API CPU against 35.1 at 100 sends at
// once (70.0 against 40.9 on a paid model) and the median first token 0.7 s (1.4 s) later.

// How many fields the objects of a Born constructor have room for from birth (see bornWith): a
// response ends with about 48 own properties, a request about 40.
const BORN_FIELDS = 64;

/**
 * A constructor for `base`'s objects born with `proto` as their prototype: a function whose
 * `prototype` is `proto` and which runs `base` on the new object. Not Reflect.construct with it as
 * new.target: V8 gives each object made that way a map of its own too.
 *
 * V8 sizes the objects a constructor makes by the `this.<name> =` assignments in its source. A Born
 * that assigns nothing itself made objects with no room for the fields Node and Express add: past a
 * dozen fields added outside the object, each request and response was turned into a dictionary (a
 * hash table of its own, about 2.5 KB, every property read a lookup; measured with %HasFastProperties
 * and a heap snapshot of 500 streams). So Born's source names BORN_FIELDS fields in a branch that never
 * runs (its arguments are never null): the objects get that room, V8 trims what its first objects did
 * not use, and they keep fast properties and shared maps. Made with `new Function` because those
 * assignments have to be in Born's own source.
 */
function bornWith<C extends typeof IncomingMessage | typeof ServerResponse>(base: C, proto: object): C {
  const room = Array.from({ length: BORN_FIELDS }, (_, i) => `this.f${i} = undefined;`).join(' ');
  const make = new Function('base', `return function Born(...args) { if (args === null) { ${room} } Reflect.apply(base, this, args); };`) as (
    base: C,
  ) => (this: object, ...args: unknown[]) => void;
  const Born = make(base);
  Born.prototype = proto;
  return Born as unknown as C;
}

// Node's IncomingMessage and ServerResponse are plain functions (callable on an object made elsewhere), not classes.
const callable = (f: object) => !Function.prototype.toString.call(f).startsWith('class');

/**
 * Nest's Express adapter, with requests and responses that share their shapes.
 *
 * Express moves every request and response it handles onto its own prototypes
 * (`Object.setPrototypeOf(req, app.request)`, the same for `res`). In V8 an object whose prototype
 * was changed gets a map (a hidden class) of its own for each property added to it afterwards: each
 * request and each response then had a shape no other had (169 response shapes over 200 streams,
 * measured with %HaveSameMap), so every property read of them, in Node's http code, in Express and
 * in the stream writes (common/sse-response.ts), missed its inline cache and went the slow way: a
 * tenth of the API's CPU while 500 streams relay, in `perf`. Here Node makes them with those
 * prototypes from the start (http.createServer's `IncomingMessage` and `ServerResponse` options):
 * Express's setPrototypeOf then finds the prototype it sets and changes nothing.
 */
export class SharedShapesExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and the tracking of open connections are left to Nest's own (neither is used by the app).
    if (options?.httpsOptions || options?.forceCloseConnections || !callable(IncomingMessage) || !callable(ServerResponse)) {
      return super.initHttpServer(options);
    }
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      { IncomingMessage: bornWith(IncomingMessage, app.request), ServerResponse: bornWith(ServerResponse, app.response) },
      app,
    );
  }
}
