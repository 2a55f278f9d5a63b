import { BatchedWrites, BulkOperationError, everyModified } from './batched-writes';

describe('BatchedWrites', () => {
  it('sends the operations asked for in one turn of the event loop as one write, in order', async () => {
    const writes: number[][] = [];
    const batched = new BatchedWrites<number>(async (ops) => void writes.push(ops));
    await Promise.all([batched.add(1), batched.add(2), batched.add(3)]);
    await batched.add(4);
    expect(writes).toEqual([[1, 2, 3], [4]]);
  });

  it('fails only the operations a bulk write error names', async () => {
    const error = Object.assign(new Error('bulk'), { writeErrors: [{ index: 1 }] });
    const batched = new BatchedWrites<string>(() => Promise.reject(error));
    const outcomes = await Promise.allSettled([batched.add('a'), batched.add('b'), batched.add('c')]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it("fails an operation with the server's own error for it (its code), the bulk's error as its cause", async () => {
    const error = Object.assign(new Error('bulk'), { writeErrors: [{ index: 0, code: 11000, errmsg: 'E11000 duplicate key' }] });
    const batched = new BatchedWrites<string>(() => Promise.reject(error));
    const [own, other] = await Promise.allSettled([batched.add('a'), batched.add('b')]);
    expect(own).toMatchObject({ status: 'rejected', reason: { code: 11000, message: 'E11000 duplicate key', cause: error } });
    expect((own as PromiseRejectedResult).reason).toBeInstanceOf(BulkOperationError);
    expect(other.status).toBe('fulfilled');
  });

  it("answers each operation what the bulk's result says of it: every update changed its document, or not known", async () => {
    let modifiedCount = 3;
    const batched = new BatchedWrites<string, boolean>(async () => ({ modifiedCount }), Infinity, everyModified);
    expect(await Promise.all([batched.add('a'), batched.add('b'), batched.add('c')])).toEqual([true, true, true]);
    modifiedCount = 1;
    expect(await Promise.all([batched.add('a'), batched.add('b')])).toEqual([false, false]);
    // A bulk of one is exact either way; one whose other operations failed tells nothing of the rest.
    modifiedCount = 0;
    expect(await batched.add('a')).toBe(false);
    const failing = new BatchedWrites<string, boolean>(() => Promise.reject(Object.assign(new Error('bulk'), { writeErrors: [{ index: 1 }] })), Infinity, everyModified);
    const outcomes = await Promise.allSettled([failing.add('a'), failing.add('b')]);
    expect(outcomes).toMatchObject([{ status: 'fulfilled', value: false }, { status: 'rejected' }]);
  });

  it('fails every operation when the whole write failed (thrown or rejected)', async () => {
    const away = new BatchedWrites<string>(() => Promise.reject(new Error('database away')));
    const thrown = new BatchedWrites<string>(() => {
      throw new Error('bad');
    });
    for (const batched of [away, thrown]) {
      const outcomes = await Promise.allSettled([batched.add('a'), batched.add('b')]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    }
  });

  it('splits what one turn asked for into bulks of at most maxBatch operations', async () => {
    const writes: number[][] = [];
    const batched = new BatchedWrites<number>(async (ops) => void writes.push(ops), 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => batched.add(n)));
    expect(writes).toEqual([[1, 2], [3, 4], [5]]);
  });
});
