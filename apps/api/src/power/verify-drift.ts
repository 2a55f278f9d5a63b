// The checks `verify:ledger` runs beside balance == ledger: holds nothing runs any more, and the
// square's counters against their records. Read-only, on the collections by name through the MongoDB
// driver (a command: it runs beside the app or with the app stopped), so it imports no feature.
import { ObjectId, type Db, type Document } from 'mongodb';
import { ledgerEntryIdBytes } from './ledger-entry-id';

/** A hold still open whose paid action no longer runs (or never ran). */
export interface StrayHold {
  holdID: string;
  userID: string;
  key: string;
  points: number;
  why: string;
}

/** A square counter that differs from what its records say. */
export interface CounterDrift {
  storyID: string;
  field: 'unique_user_count' | 'penetration_story_total_rounds' | 'additional_story_count';
  stored: number;
  records: number;
}

const GENERATION_HOLD = 'generation:';
// Longer than any paid action runs (the ledger's repair releases such holds: ledger-repair.service.ts).
const HOLD_MAX_AGE_MS = 15 * 60_000;
// A hold taken beside its turn's claim, or a counter between two steps, is off for a moment: what
// looks wrong is looked at again after this long, and reported only if it still is.
const RECHECK_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Open holds whose action does not run: a send's hold (key `generation:<id>`) whose story's turn is
 * not running that generation, or any hold older than a paid action may run.
 */
export async function strayHolds(db: Db): Promise<StrayHold[]> {
  const first = await strayNow(db);
  if (first.length === 0) return [];
  await sleep(RECHECK_MS);
  const again = new Set((await strayNow(db)).map((h) => h.holdID));
  return first.filter((h) => again.has(h.holdID));
}

async function strayNow(db: Db): Promise<StrayHold[]> {
  const entries = db.collection('ledger_entries');
  const now = Date.now();
  const stray: StrayHold[] = [];
  for await (const hold of entries.find({ kind: 'hold', state: 'applied', closed: { $ne: true } })) {
    const holdID = String(hold._id instanceof ObjectId ? hold._id.toHexString() : hold._id);
    // Closed already (the hold's `closed` hint is written after its closing entry).
    if (await entries.findOne({ _id: new ObjectId(ledgerEntryIdBytes(hold.userID as string, 'close', holdID)) }, { projection: { _id: 1 } })) continue;
    const why = await whyStray(db, hold, now);
    if (why) stray.push({ holdID, userID: hold.userID as string, key: hold.key as string, points: -(hold.points as number), why });
  }
  return stray;
}

async function whyStray(db: Db, hold: Document, now: number): Promise<string | null> {
  const key = String(hold.key);
  if (key.startsWith(GENERATION_HOLD)) {
    const storyID = hold.storyInfo?.storyID as string | undefined;
    const turn = storyID && ObjectId.isValid(storyID) ? await db.collection('play_turns').findOne({ _id: new ObjectId(storyID) }) : null;
    if (!turn) return 'no turn';
    if (turn.state === 'generating' && `${GENERATION_HOLD}${turn.generationId}` === key) return null;
    return turn.state === 'generating' ? 'its turn runs another generation' : `its turn is ${String(turn.state)}`;
  }
  return Number(hold.claimedAt ?? 0) < now - HOLD_MAX_AGE_MS ? 'older than any paid action runs' : null;
}

interface CountedStory {
  _id: ObjectId;
  userID?: string;
  lineage?: string[];
  rounds?: number;
  addedChars?: number;
  unique_user_count?: number;
  penetration_story_total_rounds?: number;
  additional_story_count?: number;
  playerDue?: string;
}

/**
 * The square's counters of every story against their records, as they stand once every step under
 * way has run: players = the distinct users with a player record of the story (or a clone of it still
 * being counted); rounds and characters = the sums of the own counters of the clones that credit it
 * (every clone with the story in its lineage, owned by someone else).
 */
export async function counterDrifts(db: Db): Promise<CounterDrift[]> {
  const first = await countersNow(db);
  if (first.length === 0) return [];
  await sleep(RECHECK_MS);
  const again = await countersNow(db);
  const key = (d: CounterDrift) => `${d.storyID}/${d.field}`;
  const still = new Set(again.map(key));
  return again.filter((d) => still.has(key(d)) && first.some((f) => key(f) === key(d)));
}

async function countersNow(db: Db): Promise<CounterDrift[]> {
  const projection = { userID: 1, lineage: 1, rounds: 1, addedChars: 1, unique_user_count: 1, penetration_story_total_rounds: 1, additional_story_count: 1, playerDue: 1 };
  const stories = await db.collection<CountedStory>('stories').find({}, { projection }).toArray();
  const byId = new Map(stories.map((s) => [s._id.toHexString(), s]));
  const players = new Map<string, Set<string>>();
  const playerOf = (storyId: string) => players.get(storyId) ?? players.set(storyId, new Set()).get(storyId)!;
  for await (const row of db.collection('story_players').find({}, { projection: { storyId: 1, userID: 1 } })) playerOf(String(row.storyId)).add(String(row.userID));
  const rounds = new Map<string, number>();
  const chars = new Map<string, number>();
  for (const clone of stories) {
    for (const sourceId of clone.lineage ?? []) {
      const source = byId.get(sourceId);
      if (!source || source.userID === clone.userID) continue;
      rounds.set(sourceId, (rounds.get(sourceId) ?? 0) + (clone.rounds ?? 0));
      chars.set(sourceId, (chars.get(sourceId) ?? 0) + (clone.addedChars ?? 0));
      if (clone.playerDue !== undefined && clone.userID) playerOf(sourceId).add(clone.userID);
    }
  }
  const drifts: CounterDrift[] = [];
  for (const story of stories) {
    const id = story._id.toHexString();
    const expected: [CounterDrift['field'], number][] = [
      ['unique_user_count', players.get(id)?.size ?? 0],
      ['penetration_story_total_rounds', rounds.get(id) ?? 0],
      ['additional_story_count', chars.get(id) ?? 0],
    ];
    for (const [field, records] of expected) {
      const stored = story[field] ?? 0;
      if (stored !== records) drifts.push({ storyID: id, field, stored, records });
    }
  }
  return drifts;
}
