// The square's counters after crashes cut a clone or a turn's credit between its steps (the steps of
// StorySpreadService, cut here by a throwing fault hook as a dead process would leave them): the
// start-up repair (SpreadRepairService) finishes them, exactly; `verify:ledger` reports a short counter
// and a hold nothing runs, and the turn repair releases such a hold once its process is gone.
import { PowerReason, type ClonePublicStoryDto } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { INSTANCE } from '../src/common/instance';
import { TurnRepairService } from '../src/play/turn-repair.service';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { SpreadRepairService } from '../src/stories/spread-repair.service';
import { StoriesService } from '../src/stories/stories.service';
import { StorySpreadService, type SpreadStep } from '../src/stories/story-spread.service';
import { balanceOf } from './power-factories';
import { as, publishedStory, signUp, type TestUser } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

// A process of this host that is gone (no process has this pid).
const DEAD = `${INSTANCE.host}|2147483646|dead`;

describe('the square counters and stray holds after a crash', () => {
  let t: TestApp;
  let spread: StorySpreadService;
  let repair: SpreadRepairService;
  const db = () => t.connection.db!;
  const stories = () => db().collection('stories');
  const clonePublic = (u: TestUser, owner: TestUser, storyID: string) =>
    as(t, u).post('/api/user/clone-public-story', { userID: owner.userID, storyID } satisfies ClonePublicStoryDto);
  // The process that was cutting these steps died: what it left names it.
  const diedMidway = async () => {
    await stories().updateMany({ playerDue: { $exists: true } }, { $set: { playerDue: DEAD } });
    for (const s of await stories().find({ 'creditsDue.0': { $exists: true } }).toArray()) {
      await stories().updateOne({ _id: s._id }, { $set: { creditsDue: (s.creditsDue as { owner: string }[]).map((c) => ({ ...c, owner: DEAD })) } });
    }
  };
  // Steps cut: the fault hook throws at `step` for the calls `cut` picks.
  const cutAt = (step: SpreadStep, cut: () => boolean = () => true) =>
    vi.spyOn(spread, 'fault').mockImplementation((at) => {
      if (at === step && cut()) throw new Error(`crash at ${step}`);
    });
  const counterDrifts = async () => (await verifyLedger(db())).counterDrifts;

  beforeAll(async () => {
    t = await createTestApp();
    spread = t.app.get(StorySpreadService);
    repair = t.app.get(SpreadRepairService);
  });
  beforeEach(() => t.clean());
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => t.close());

  it('clones cut at random steps at once: the repair counts every player once, and the counters equal their records', async () => {
    const alice = await signUp(t, 'alice');
    const root = await publishedStory(t, alice, { name: 'Popular' });
    const users = await Promise.all(Array.from({ length: 16 }, (_, i) => signUp(t, `player${i}`)));
    let n = 0;
    const spy = vi.spyOn(spread, 'fault').mockImplementation((at) => {
      // About a third cut after the clone was written, a third after the player record.
      if ((at === 'cloned' && n++ % 3 === 0) || (at === 'player-recorded' && n++ % 3 === 1)) throw new Error(`crash at ${at}`);
    });
    const answers = await Promise.all(users.map((u) => clonePublic(u, alice, root)));
    spy.mockRestore();
    expect(answers.filter((a) => a.status !== 201).length).toBeGreaterThan(0);
    const clones = await stories().countDocuments({ sourceStoryId: root });
    expect(clones).toBe(16);
    // Left short by the cut clones (the records are right; the counter is not, yet).
    const short = (await stories().findOne({ _id: new Types.ObjectId(root) }))!.unique_user_count as number;
    expect(short).toBeLessThan(16);
    expect(await counterDrifts()).toEqual([{ storyID: root, field: 'unique_user_count', stored: short, records: 16 }]);
    const cut = await stories().countDocuments({ playerDue: { $exists: true } });
    expect(cut).toBeGreaterThan(0);
    await diedMidway();
    expect(await repair.repair()).toEqual({ players: cut, credits: 0, trimmed: 0 });
    expect((await stories().findOne({ _id: new Types.ObjectId(root) }))!.unique_user_count).toBe(16);
    expect(await stories().countDocuments({ playerDue: { $exists: true } })).toBe(0);
    expect(await counterDrifts()).toEqual([]);
  });

  it.each<SpreadStep>(['sources-credited', 'credit-paid'])('a turn cut at %s is counted once on every source by the repair', async (step) => {
    const [alice, bob, carol] = [await signUp(t, 'alice'), await signUp(t, 'bob'), await signUp(t, 'carol')];
    const root = await publishedStory(t, alice, { name: 'Counted' });
    const b = (await clonePublic(bob, alice, root)).body.data.id;
    await as(t, bob).post(`/api/user/public/${b}`).expect(200);
    const c = (await clonePublic(carol, bob, b)).body.data.id;
    const service = t.app.get(StoriesService);
    cutAt(step);
    await expect(service.appendTurn(carol.userID, c, 'A line carol played.')).rejects.toThrow('crash');
    vi.restoreAllMocks();
    // The text and the clone's own counters are one write: they stand.
    expect(await stories().findOne({ _id: new Types.ObjectId(c) })).toMatchObject({ rounds: 1, addedChars: 21 });
    await diedMidway();
    const report = await repair.repair();
    expect(report.credits + report.trimmed).toBeGreaterThan(0);
    await repair.repair();
    for (const source of [root, b]) {
      expect(await stories().findOne({ _id: new Types.ObjectId(source) })).toMatchObject({ penetration_story_total_rounds: 1, additional_story_count: 21 });
    }
    expect(await stories().countDocuments({ $or: [{ 'creditsDue.0': { $exists: true } }, { 'creditsApplied.0': { $exists: true } }] })).toBe(0);
    expect(await counterDrifts()).toEqual([]);
  });

  it('verify:ledger reports a planted short counter and a planted stray hold; the turn repair releases the hold', async () => {
    const [alice, bob] = [await signUp(t, 'alice'), await signUp(t, 'bob')];
    const root = await publishedStory(t, alice, { name: 'Planted' });
    await clonePublic(bob, alice, root).expect(201);
    expect(await counterDrifts()).toEqual([]);
    await stories().updateOne({ _id: new Types.ObjectId(root) }, { $inc: { unique_user_count: -1 } });
    expect(await counterDrifts()).toEqual([{ storyID: root, field: 'unique_user_count', stored: 0, records: 1 }]);
    await stories().updateOne({ _id: new Types.ObjectId(root) }, { $inc: { unique_user_count: 1 } });

    // A send's hold whose turn never ran it (its process died between the two), taken by a dead process.
    const power = t.app.get(PowerService);
    await power.grant(bob.userID, 500, PowerReason.DAILY_CHECK_IN, 'seed');
    const holdId = await power.hold(bob.userID, 100, 'generation:planted', { storyID: root, storyName: 'Planted' });
    await db().collection('ledger_entries').updateOne({ _id: new Types.ObjectId(holdId) }, { $set: { owner: DEAD } });
    const report = await verifyLedger(db());
    expect(report.drifts).toEqual([]);
    expect(report.strayHolds).toEqual([{ holdID: holdId, userID: bob.userID, key: 'generation:planted', points: 100, why: 'its turn is idle' }]);
    expect(await balanceOf(t, bob.userID)).toBe(400);
    await t.app.get(TurnRepairService).repair();
    expect(await balanceOf(t, bob.userID)).toBe(500);
    expect((await verifyLedger(db())).strayHolds).toEqual([]);
  });
});
