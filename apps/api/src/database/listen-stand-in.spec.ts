import { listenStandIn, type StandInModule } from './embedded-database';

// A stand-in server whose start fails as listen does on a port taken meanwhile, for the ports in `taken`.
function fakeStandIn(taken: Set<number>): Pick<StandInModule, 'CongoServer'> {
  class FakeServer {
    constructor(readonly options: { port: number }) {}
    start(): Promise<void> {
      if (!taken.has(this.options.port)) return Promise.resolve();
      return Promise.reject(Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${this.options.port}`), { code: 'EADDRINUSE' }));
    }
    stop(): Promise<void> {
      return Promise.resolve();
    }
    getStorage(): never {
      throw new Error('not used');
    }
  }
  return { CongoServer: FakeServer as unknown as StandInModule['CongoServer'] };
}

describe('listenStandIn: the stand-in on a free port, even when another process takes it first', () => {
  it('tries another port when the one found free was taken in between', async () => {
    const ports = [41001, 41002, 41003];
    const { port } = await listenStandIn(fakeStandIn(new Set([41001, 41002])), async () => ports.shift()!);
    expect(port).toBe(41003);
  });

  it('gives up after five ports, and does not retry other errors', async () => {
    let next = 42000;
    await expect(listenStandIn(fakeStandIn(new Set([42000, 42001, 42002, 42003, 42004, 42005])), async () => next++)).rejects.toThrow(/EADDRINUSE/);
    expect(next).toBe(42005);
    const failing = { CongoServer: class { start() { return Promise.reject(new Error('disk full')); } } as unknown as StandInModule['CongoServer'] };
    await expect(listenStandIn(failing, async () => 43000)).rejects.toThrow('disk full');
  });
});
