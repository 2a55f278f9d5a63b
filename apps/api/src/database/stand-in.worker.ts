import { parentPort, workerData } from 'node:worker_threads';
import { runStandIn, type StandInThreadData, type StandInThreadMessage } from './embedded-database';

// The offline stand-in's thread (see startStandIn): starts it, says where it listens, and stops it
// (journal folded into its snapshot) when asked.
const { dataDir, dbName, compactBytes } = workerData as StandInThreadData;
const say = (message: StandInThreadMessage) => parentPort!.postMessage(message);
const reason = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

runStandIn(dataDir, dbName, compactBytes).then(
  (handle) => {
    parentPort!.once('message', () => {
      handle.stop().then(
        () => say({ stopped: true }),
        (error: unknown) => say({ stopped: true, error: reason(error) }),
      );
    });
    say({ uri: handle.uri });
  },
  (error: unknown) => say({ error: reason(error) }),
);
