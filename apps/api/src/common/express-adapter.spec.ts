import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

interface Probe {
  bornWith: boolean[];
  answer: unknown;
  reqShapes: number;
  resShapes: number;
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
  it("makes requests and responses with Express's prototypes, so that they share their shapes", () => {
    const { bornWith, answer, reqShapes, resShapes } = probe('shared');
    expect(bornWith).toEqual(Array(20).fill(true));
    // One map each (at most a couple while V8 still generalises a field), not one per request.
    expect(reqShapes).toBeLessThanOrEqual(2);
    expect(resShapes).toBeLessThanOrEqual(2);
    // Express works as before on them (params, query, res.json).
    expect(answer).toEqual({ id: '7', query: 'x' });
  }, 60_000);

  it("is what Nest's own adapter does not: there each request and response has a shape of its own", () => {
    const { bornWith, reqShapes, resShapes } = probe('plain');
    expect(bornWith.some(Boolean)).toBe(false);
    expect(reqShapes).toBeGreaterThan(10);
    expect(resShapes).toBeGreaterThan(10);
  }, 60_000);
});
