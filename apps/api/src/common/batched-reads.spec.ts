import { Types } from 'mongoose';
import { BatchedReads } from './batched-reads';

describe('BatchedReads', () => {
  const ids = Array.from({ length: 4 }, () => new Types.ObjectId());
  const docs = ids.slice(0, 3).map((_id, i) => ({ _id, n: i }));

  it('reads the ids asked for in one turn of the event loop with one read, each id once; a missing one is null', async () => {
    const reads: string[][] = [];
    const batched = new BatchedReads(async (asked) => {
      reads.push(asked.map((id) => id.toHexString()));
      // Any order, missing ones left out.
      return docs.filter((d) => asked.some((id) => id.equals(d._id))).reverse();
    });
    // From separate callbacks of one poll phase, as requests parsed together are.
    const answers = await Promise.all([ids[0], ids[1], ids[0], ids[3], ids[2]].map((id) => new Promise((r) => setImmediate(r)).then(() => batched.get(id))));
    expect(answers.map((d) => d?.n ?? null)).toEqual([0, 1, 0, null, 2]);
    expect(reads).toEqual([[ids[0], ids[1], ids[3], ids[2]].map((id) => id.toHexString())]);
    // A later turn reads again (nothing is cached).
    expect((await batched.get(ids[1]))?.n).toBe(1);
    expect(reads).toHaveLength(2);
  });

  it('a failed read fails every get of its batch', async () => {
    const batched = new BatchedReads<{ _id: Types.ObjectId }>(() => Promise.reject(new Error('database away')));
    const outcomes = await Promise.allSettled([batched.get(ids[0]), batched.get(ids[1])]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});
