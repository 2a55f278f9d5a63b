// Runs the embedded database in a process of its own for the benchmarks, so its work does not
// share an event loop with the clients being timed. Prints `URI <uri>` once it is up.
import { startDatabase } from '../../src/database/embedded-database';

async function main(): Promise<void> {
  const handle = await startDatabase({
    uri: process.env.MONGODB_URI,
    mode: (process.env.EMBEDDED_DATABASE as 'auto' | 'memory-server' | 'stand-in' | undefined) ?? 'auto',
    log: (m) => process.stderr.write(`[database] ${m}\n`),
  });
  process.stdout.write(`URI ${handle.uri}\n`);
  const stop = () => void handle.stop().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
