// A worker thread's module for the WorkerThread spec: answers, throws, refuses or dies as it is asked.
import { threadId } from 'node:worker_threads';
import { ErrorCode } from '@taleloom/contracts';
import { AppException } from '../../src/common/app-exception';
import { answerJobs } from '../../src/common/worker-thread';

export type TestJob = { op: 'echo'; value: string } | { op: 'throw' } | { op: 'refuse' } | { op: 'exit' } | { op: 'thread' } | { op: 'bytes'; size: number };

answerJobs((job: TestJob) => {
  switch (job.op) {
    case 'echo':
      return job.value.toUpperCase();
    case 'throw':
      throw new Error('asked to fail');
    case 'refuse':
      throw new AppException(ErrorCode.FILE_PARSE_FAILED, [{ field: 'file', constraints: ['asked to refuse'] }], { limit: 3 });
    case 'exit':
      process.exit(3);
    // eslint-disable-next-line no-fallthrough
    case 'thread':
      return threadId;
    case 'bytes':
      return Buffer.alloc(job.size, 7);
  }
});
