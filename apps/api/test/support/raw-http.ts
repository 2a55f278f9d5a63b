import { request, type IncomingHttpHeaders } from 'node:http';

// supertest and fetch undo a compressed answer; plain node:http keeps the bytes as sent.

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request to 127.0.0.1:`port` (a GET, or a POST of `json`), answered as the raw bytes sent. */
export function rawRequest(port: number, path: string, headers: Record<string, string> = {}, json?: object): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: json ? 'POST' : 'GET',
        headers: { ...headers, ...(json ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(json ? JSON.stringify(json) : undefined);
  });
}
