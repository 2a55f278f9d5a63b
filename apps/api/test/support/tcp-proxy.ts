// A loopback TCP proxy for fault tests: put it between the app and its database (or anything else
// that speaks TCP), then cut the line and restore it. Node built-ins only.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number;
  /** Connections opened through the proxy so far. */
  readonly connections: number;
  /** True while the line is cut. */
  readonly isCut: boolean;
  /**
   * Cuts the line: every open connection is reset and new ones are reset as they come ('reset', a
   * database that went away), or accepted and never answered ('blackhole', a network partition).
   */
  cut(mode?: 'reset' | 'blackhole'): void;
  /** Lets connections through again (connections held by a blackhole are reset first). */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let mode: 'open' | 'reset' | 'blackhole' = 'open';
  let connections = 0;
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const track = (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => undefined);
  };
  const server: Server = createServer((client) => {
    track(client);
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'blackhole') return;
    connections++;
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const resetAll = () => {
    for (const s of open) s.resetAndDestroy();
    open.clear();
  };
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    get isCut() {
      return mode !== 'open';
    },
    cut(how = 'reset') {
      mode = how;
      if (how === 'reset') resetAll();
      // A partition: open connections stop carrying bytes either way.
      else for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    restore() {
      if (mode === 'blackhole') resetAll();
      mode = 'open';
    },
    close: () =>
      new Promise<void>((done) => {
        resetAll();
        server.close(() => done());
      }),
  };
}

/** The same connection string, pointed at the proxy. */
export function viaProxy(uri: string, proxy: TcpProxy): string {
  const url = new URL(uri);
  url.host = `127.0.0.1:${proxy.port}`;
  return url.toString();
}
