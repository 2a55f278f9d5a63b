// The plain read the burst benchmark times beside each burst (and at rest, just before it).
import { Agent, request as httpRequest } from 'node:http';
import { READ_PAUSE_MS, READERS, sleep } from './burst-settings';

const readAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** READERS clients reading GET /api/user/story-list over and over until stopped: each read's time (ms). */
export function readProbe(base: string, tokens: string[]): { stop(): Promise<{ times: number[]; errors: number }> } {
  let going = true;
  let errors = 0;
  const times: number[] = [];
  const one = (token: string) =>
    new Promise<void>((done) => {
      const t0 = performance.now();
      const req = httpRequest(`${base}/api/user/story-list`, { agent: readAgent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) times.push(performance.now() - t0);
          else errors++;
          done();
        });
        res.on('error', () => (errors++, done()));
      });
      req.on('error', () => (errors++, done()));
      req.end();
    });
  const client = async (i: number) => {
    while (going) {
      await one(tokens[i % tokens.length]);
      if (going) await sleep(READ_PAUSE_MS);
    }
  };
  const clients = Array.from({ length: READERS }, (_, i) => client(i));
  return {
    stop: async () => {
      going = false;
      await Promise.all(clients);
      return { times, errors };
    },
  };
}
