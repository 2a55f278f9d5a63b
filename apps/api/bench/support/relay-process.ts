// A bare streaming relay in a process of its own, the reference the burst benchmark measures TaleLoom
// beside: what a chat front end's proxy does with no accounts, stories, database or money (as
// SillyTavern's chat-completions relay does: the provider's answer piped to the client as it comes).
// Each POST is sent on to the provider's /chat/completions with undici and its body piped back.
// It says `{ port }` once it listens and exits when the parent goes away. Started with the provider's
// base URL as its argument.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

const baseURL = process.argv[2];
if (!baseURL) throw new Error('relay-process: the provider base URL is its argument');

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => {
    request(`${baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(parts) })
      .then((answer) => {
        res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'text/event-stream'), 'cache-control': 'no-cache' });
        answer.body.pipe(res);
        res.on('close', () => answer.body.destroy());
      })
      .catch((error: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(error instanceof Error ? error.message : String(error));
      });
  });
});

server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => server.close(() => process.exit(0)));
