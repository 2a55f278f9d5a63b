/**
 * Work long enough to hold the app's event loop (and with it every stream of the process): the demo
 * generator's pictures (the embedded default's, IMAGES_PROVIDER=demo) and Word exports. Each done on the
 * app's thread, as before, and on a worker thread of its own, as the app now does (WorkerThread),
 * alternately in the same run: the event loop's longest stall meanwhile (a 1 ms timer's longest gap),
 * and the time the work took. Prints a table; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:stalls
 *   BENCH_STALLS_ROUNDS=3   rounds
 */
import { ExportService } from '../src/files/export.service';
import { exportDocx } from '../src/files/exporters/export-docx';
import { renderDemoPicture } from '../src/pictures/demo-picture';
import { DemoPictureThread } from '../src/pictures/demo-picture-thread';
import { record, runAlone } from './support/report';
import { pct } from './support/stats';

const ROUNDS = Number(process.env.BENCH_STALLS_ROUNDS ?? 3);
const PICTURES = 8;
const SIDE = 1024;
const PARAGRAPH = 'The lamp flickered and the story went on, past the pier and the customs house. 灯光闪了一下，故事继续向前。\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const storyOf = (chars: number) => PARAGRAPH.repeat(Math.ceil(chars / PARAGRAPH.length)).slice(0, chars);

interface Way {
  label: string;
  work: () => Promise<unknown>;
  stalls: number[];
  times: number[];
}

/** Runs `work` while a 1 ms timer notes its longest gap: [longest stall, time taken] in ms. */
async function watched(work: () => Promise<unknown>): Promise<[number, number]> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await sleep(5);
  const started = performance.now();
  await work();
  const took = performance.now() - started;
  await sleep(5);
  clearInterval(timer);
  return [longest, took];
}

async function compare(what: string, before: () => Promise<unknown>, after: () => Promise<unknown>): Promise<void> {
  const ways: Way[] = [
    { label: "the app's thread (before)", work: before, stalls: [], times: [] },
    { label: 'its own thread', work: after, stalls: [], times: [] },
  ];
  // Warm-up, not timed: the thread starts, both compile their hot paths.
  for (const way of ways) await way.work();
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of r % 2 ? [...ways].reverse() : ways) {
      const [stall, took] = await watched(way.work);
      way.stalls.push(stall);
      way.times.push(took);
      console.log(`   ${what}, round ${r + 1}, ${way.label}: ${took.toFixed(0)} ms; the event loop's longest stall ${stall.toFixed(1)} ms`);
    }
  }
  const [app, own] = ways;
  record({
    suite: 'stalls',
    measure: `the event loop's longest stall, ${what}, on its own thread (median of ${ROUNDS} rounds)`,
    unit: 'ms',
    median: pct(own.stalls, 50),
    baseline: { label: "on the app's thread", median: pct(app.stalls, 50) },
  });
  record({
    suite: 'stalls',
    measure: `time taken, ${what}, on its own thread (median of ${ROUNDS} rounds)`,
    unit: 'ms',
    median: pct(own.times, 50),
    baseline: { label: "on the app's thread", median: pct(app.times, 50) },
  });
}

export async function run(): Promise<void> {
  const pictures = new DemoPictureThread();
  const exporter = new ExportService();
  try {
    const prompt = (i: number) => `A lighthouse keeper reads letter ${i} by the sea at night.`;
    const eight = async (draw: (p: string) => Promise<Buffer>) => {
      for (let i = 0; i < PICTURES; i++) await draw(prompt(i));
    };
    await compare(
      `${PICTURES} demo pictures (${SIDE}x${SIDE}) one after another`,
      () => eight((p) => renderDemoPicture(p, SIDE, SIDE)),
      () => eight((p) => pictures.render(p, SIDE, SIDE)),
    );
    for (const chars of [200_000, 1_000_000]) {
      const content = storyOf(chars);
      await compare(
        `a Word export of ${chars.toLocaleString('en')} characters`,
        () => exportDocx(content, 'Bench'),
        () => exporter.export({ format: 'docx', content, name: 'Bench' }, 'en'),
      );
    }
  } finally {
    await pictures.close();
    await exporter.onApplicationShutdown();
  }
}

if (require.main === module) runAlone(run);
