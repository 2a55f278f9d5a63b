import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { ErrorCode } from '@taleloom/contracts';
import type { TestJob } from '../../test/support/jobs.worker';
import { AppException } from './app-exception';
import { asBuffer, WorkerThread } from './worker-thread';

const FILE = join(__dirname, '..', '..', 'test', 'support', 'jobs.worker');

describe('WorkerThread', () => {
  let thread: WorkerThread<TestJob, unknown>;
  beforeEach(() => (thread = new WorkerThread<TestJob, unknown>(FILE)));
  afterEach(() => thread.close());

  it('runs the jobs on a thread of its own, in order, and answers each its own output', async () => {
    const other = await thread.run({ op: 'thread' });
    expect(other).not.toBe(threadId);
    await expect(Promise.all(['a', 'b', 'c'].map((value) => thread.run({ op: 'echo', value })))).resolves.toEqual(['A', 'B', 'C']);
    expect(await thread.run({ op: 'thread' })).toBe(other);
    expect(thread.pending).toBe(0);
  });

  it('hands bytes back as bytes', async () => {
    const bytes = asBuffer((await thread.run({ op: 'bytes', size: 3 })) as Uint8Array);
    expect(bytes.equals(Buffer.from([7, 7, 7]))).toBe(true);
  });

  it('fails a job that throws, with its message, and goes on with the next', async () => {
    await expect(thread.run({ op: 'throw' })).rejects.toThrow('asked to fail');
    await expect(thread.run({ op: 'echo', value: 'on' })).resolves.toBe('ON');
  });

  it('fails a job refused with an AppException with the same AppException: code, details and params', async () => {
    const refusal = await thread.run({ op: 'refuse' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppException);
    expect(refusal).toMatchObject({ code: ErrorCode.FILE_PARSE_FAILED, details: [{ field: 'file', constraints: ['asked to refuse'] }], params: { limit: 3 } });
  });

  it('fails the jobs of a thread that dies, and starts a fresh one for the next', async () => {
    const first = await thread.run({ op: 'thread' });
    const dying = expect(thread.run({ op: 'exit' })).rejects.toThrow('exited (3)');
    const behind = expect(thread.run({ op: 'echo', value: 'lost' })).rejects.toThrow('exited (3)');
    await Promise.all([dying, behind]);
    const second = await thread.run({ op: 'thread' });
    expect(second).not.toBe(first);
  });

  it('stops after its idle time, and starts again when work comes', async () => {
    const quick = new WorkerThread<TestJob, unknown>(FILE, 50);
    try {
      const first = await quick.run({ op: 'thread' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await quick.run({ op: 'thread' });
      expect(second).not.toBe(first);
    } finally {
      await quick.close();
    }
  });

  it('fails the jobs not answered yet when closed', async () => {
    const failed = expect(thread.run({ op: 'echo', value: 'late' })).rejects.toThrow('stopped');
    await thread.close();
    await failed;
  });
});
