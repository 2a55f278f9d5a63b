/**
 * What one flush of a running generation's text costs the API process: the same `$set` of a turn
 * (userText, aiText of ~2 KB, reasoning, heartbeatAt) through mongoose's `updateOne` and through the
 * native driver (with the `updatedAt` mongoose adds), C at a time, against the embedded database in a
 * process of its own (or MONGODB_URI). Prints this process's CPU per write and the time per write
 * (median of alternating rounds); never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:flush     (BENCH_N=3000 writes a round, BENCH_C=50, BENCH_ROUNDS=6)
 */
import 'reflect-metadata';
import mongoose, { Types } from 'mongoose';
import { PlayTurn, PlayTurnSchema } from '../src/play/play-turn.schema';
import { startDatabaseProcess } from './support/processes';

const N = Number(process.env.BENCH_N ?? 3000);
const C = Number(process.env.BENCH_C ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const TURNS = 500;

async function database(): Promise<{ uri: string; stop(): void }> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: () => undefined };
  const db = await startDatabaseProcess();
  return { uri: db.uri, stop: () => void db.stop() };
}

export async function run(): Promise<void> {
  const db = await database();
  const uri = new URL(db.uri);
  uri.pathname = '/bench_flush';
  await mongoose.connect(uri.toString());
  const turns = mongoose.model<PlayTurn>('BenchTurn', PlayTurnSchema, 'bench_play_turns');
  try {
    const ids = Array.from({ length: TURNS }, () => new Types.ObjectId());
    await turns.insertMany(ids.map((_id) => ({ _id, userID: 'u', state: 'generating', generationId: `g-${_id.toHexString()}` })));
    const text = 'The tide came in slowly over the black stones of the harbour. '.repeat(32);
    const writers: Record<string, (i: number) => Promise<unknown>> = {
      mongoose: (i) => {
        const _id = ids[i % TURNS];
        return turns.updateOne({ _id, generationId: `g-${_id.toHexString()}` }, { $set: { userText: 'Mara: Go.', aiText: text + i, reasoning: '', heartbeatAt: Date.now() } }).exec();
      },
      native: (i) => {
        const _id = ids[i % TURNS];
        return turns.collection.updateOne({ _id, generationId: `g-${_id.toHexString()}` }, { $set: { userText: 'Mara: Go.', aiText: text + i, reasoning: '', heartbeatAt: Date.now(), updatedAt: new Date() } });
      },
    };
    const round = async (name: string) => {
      let next = 0;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: C }, async () => {
          while (next < N) await writers[name](next++);
        }),
      );
      const used = process.cpuUsage(cpu0);
      return { cpu: (used.user + used.system) / N, wall: ((performance.now() - t0) * 1000) / N };
    };
    for (const name of Object.keys(writers)) await round(name);
    const results: Record<string, { cpu: number; wall: number }[]> = { mongoose: [], native: [] };
    for (let r = 0; r < ROUNDS; r++) for (const name of r % 2 ? ['native', 'mongoose'] : ['mongoose', 'native']) results[name].push(await round(name));
    const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
    console.log(`Turn text flush, ${N} writes a round, ${C} at a time: this process's CPU per write, and time per write`);
    for (const [name, v] of Object.entries(results)) {
      console.log(`   ${name.padEnd(9)} CPU ${med(v.map((x) => x.cpu)).toFixed(0)} us, time ${med(v.map((x) => x.wall)).toFixed(0)} us   (CPU rounds: ${v.map((x) => x.cpu.toFixed(0)).join(', ')})`);
    }
    console.log(`   native / mongoose CPU: ${(med(results.native.map((x) => x.cpu)) / med(results.mongoose.map((x) => x.cpu))).toFixed(2)}x`);
    // Both store the same document (but for the ids and the times of the insert and the write), BSON types included.
    const [x, y] = ids;
    const set = { userText: 'Mara: Go.', aiText: text, reasoning: '', heartbeatAt: 1_795_000_000_123 };
    await turns.updateOne({ _id: x }, { $set: set }).exec();
    await turns.collection.updateOne({ _id: y }, { $set: { ...set, updatedAt: new Date() } });
    const raw = (_id: Types.ObjectId) => turns.collection.findOne({ _id }, { promoteValues: false, projection: { _id: 0, generationId: 0, createdAt: 0, updatedAt: 0 } });
    const [dx, dy] = await Promise.all([raw(x), raw(y)]);
    const shape = (d: unknown) => JSON.stringify(d, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) && (v as { _bsontype?: string })._bsontype ? `${(v as { _bsontype: string })._bsontype}:${String(v)}` : v));
    console.log(`   same stored document (types included): ${shape(dx) === shape(dy) ? 'yes' : `NO\n${shape(dx)}\n${shape(dy)}`}`);
  } finally {
    await mongoose.disconnect();
    db.stop();
  }
}

if (require.main === module) {
  run()
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
