/**
 * Work long enough to hold the app's event loop (and with it every stream of the process): the demo
 * generator's pictures (the embedded default's, IMAGES_PROVIDER=demo), Word exports, RTF uploads, and the embedded
 * stand-in database's own work (a long story's update; long stories written while its journal is folded
 * into its snapshot). Each done on the app's thread, as before, and on a worker thread of its own, as the
 * app now does, alternately in the same run: the event loop's longest stall meanwhile (a 1 ms timer's
 * longest gap), and the time the work took. Prints a table; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:stalls
 *   BENCH_STALLS_ROUNDS=3   rounds
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { runStandIn, startDatabase, type DatabaseHandle } from '../src/database/embedded-database';
import { ExportService } from '../src/files/export.service';
import { exportDocx } from '../src/files/exporters/export-docx';
import { exportRtf } from '../src/files/exporters/export-rtf';
import { rtfToText } from '../src/files/parsers/rtf-to-text';
import { UploadParserService } from '../src/files/upload-parser.service';
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
  const uploads = new UploadParserService();
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
    const rtf = Buffer.from(exportRtf(storyOf(3_000_000)), 'latin1');
    await compare(
      `an upload of an RTF of ${(rtf.length / 1024 / 1024).toFixed(1)} MB read`,
      async () => rtfToText(rtf),
      () => uploads.parse({ originalname: 'story.rtf', buffer: rtf, size: rtf.length }, 'en'),
    );
  } finally {
    await pictures.close();
    await exporter.onApplicationShutdown();
    await uploads.onApplicationShutdown();
  }
  await standIn();
}

// The embedded stand-in with its data on disk, run in this thread (as before) and on its own (as now).
async function standIn(): Promise<void> {
  const LONG_STORIES = 10 * ROUNDS;
  // A journal line is a whole document (a long story's: about 1,000,000 characters): every round of 10
  // long stories folds the journal into the snapshot (the whole database written out) once or twice.
  const compactBytes = 8_000_000;
  const story = storyOf(1_000_000);
  const open = async (start: (dataDir: string) => Promise<DatabaseHandle>) => {
    const handle = await start(mkdtempSync(join(tmpdir(), 'taleloom-bench-stalls-')));
    const connection = await mongoose.createConnection(handle.uri).asPromise();
    return { handle, connection, stories: connection.db!.collection<{ _id: number; main_text: string; n: number }>('stories') };
  };
  const here = await open((dataDir) => runStandIn(dataDir, 'bench', compactBytes));
  const own = await open((dataDir) => startDatabase({ mode: 'stand-in', dataDir, dbName: 'bench', journalCompactBytes: compactBytes }));
  try {
    for (const db of [here, own]) await db.stories.insertOne({ _id: 0, main_text: story, n: 0 });
    let n = 0;
    const update = (db: typeof here) => () => db.stories.updateOne({ _id: 0 }, { $set: { main_text: `${story}${++n}`, n } });
    await compare('an update of a 1,000,000-character story on the embedded stand-in', update(here), update(own));
    let round = 0;
    const write = (db: typeof here) => async () => {
      round++;
      for (let i = 1; i <= LONG_STORIES / ROUNDS; i++) await db.stories.insertOne({ _id: round * 1000 + i, main_text: story, n: 0 });
    };
    await compare(`${LONG_STORIES / ROUNDS} stories of 1,000,000 characters written on the embedded stand-in (its journal folded into its snapshot every 8,000,000 characters)`, write(here), write(own));
  } finally {
    for (const db of [here, own]) {
      await db.connection.close();
      await db.handle.stop();
    }
  }
}

if (require.main === module) runAlone(run);
