/**
 * The offline demo generator's pictures (the embedded default's, IMAGES_PROVIDER=demo): how long the
 * app's event loop stalls while they are drawn (every stream of the process waits that long), drawn on
 * the app's thread as before (`renderDemoPicture`) and on the generator's own thread as the app now does
 * (`DemoPictureThread`), alternately in the same run. Prints a table; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:pictures
 *   BENCH_PICTURES=8 BENCH_PICTURES_ROUNDS=3   pictures (1024x1024) per round, rounds
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { renderDemoPicture } from '../src/pictures/demo-picture';
import { DemoPictureThread } from '../src/pictures/demo-picture-thread';
import { record, runAlone } from './support/report';
import { pct } from './support/stats';

const PICTURES = Number(process.env.BENCH_PICTURES ?? 8);
const ROUNDS = Number(process.env.BENCH_PICTURES_ROUNDS ?? 3);
const SIDE = 1024;

interface Side {
  label: string;
  draw: (prompt: string) => Promise<Buffer>;
  stalls: number[];
  perPicture: number[];
}

export async function run(): Promise<void> {
  const thread = new DemoPictureThread();
  try {
    const sides: Side[] = [
      { label: "the app's thread (before)", draw: (p) => renderDemoPicture(p, SIDE, SIDE), stalls: [], perPicture: [] },
      { label: 'its own thread', draw: (p) => thread.render(p, SIDE, SIDE), stalls: [], perPicture: [] },
    ];
    // Warm-up, not timed: the thread starts, both compile their hot paths.
    for (const side of sides) await side.draw('A warm-up harbour at dawn.');
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of r % 2 ? [...sides].reverse() : sides) {
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        const started = performance.now();
        // One after another, as the pictures of one story are drawn; the event loop is sampled meanwhile.
        for (let i = 0; i < PICTURES; i++) await side.draw(`Round ${r}: a lighthouse keeper reads letter ${i} by the sea at night.`);
        const ms = (performance.now() - started) / PICTURES;
        delay.disable();
        side.stalls.push(delay.max / 1e6);
        side.perPicture.push(ms);
        console.log(`   round ${r + 1}, ${side.label}: ${ms.toFixed(0)} ms a picture; the event loop's longest stall ${(delay.max / 1e6).toFixed(1)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms)`);
      }
    }
    const [before, after] = sides;
    record({
      suite: 'pictures',
      measure: `the event loop's longest stall while ${PICTURES} demo pictures (${SIDE}x${SIDE}) are drawn, on their own thread (median of ${ROUNDS} rounds)`,
      unit: 'ms',
      median: pct(after.stalls, 50),
      baseline: { label: "drawn on the app's thread", median: pct(before.stalls, 50) },
    });
    record({
      suite: 'pictures',
      measure: `time a demo picture (${SIDE}x${SIDE}), on its own thread (median of ${ROUNDS} rounds)`,
      unit: 'ms',
      median: pct(after.perPicture, 50),
      baseline: { label: "on the app's thread", median: pct(before.perPicture, 50) },
    });
  } finally {
    await thread.close();
  }
}

if (require.main === module) runAlone(run);
