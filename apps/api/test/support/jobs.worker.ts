// A worker thread's module for the WorkerThread spec: answers, throws, blocks or dies as it is asked.
import { threadId } from 'node:worker_threads';
import { answerJobs } from '../../src/common/worker-thread';

export type TestJob = { op: 'echo'; value: string } | { op: 'throw' } | { op: 'exit' } | { op: 'thread' } | { op: 'bytes'; size: number };

answerJobs((job: TestJob) => {
  switch (job.op) {
    case 'echo':
      return job.value.toUpperCase();
    case 'throw':
      throw new Error('asked to fail');
    case 'exit':
      process.exit(3);
    // eslint-disable-next-line no-fallthrough
    case 'thread':
      return threadId;
    case 'bytes':
      return Buffer.alloc(job.size, 7);
  }
});
