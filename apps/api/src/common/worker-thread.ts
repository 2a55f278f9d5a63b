import type { FieldProblem } from '@taleloom/contracts';
import { parentPort, Worker } from 'node:worker_threads';
import { AppException } from './app-exception';
import { workerEntry } from './worker-entry';

interface Job {
  id: number;
  input: unknown;
}

interface Answer {
  id: number;
  output?: unknown;
  error?: string;
  /** The job's coded refusal (an AppException's parts), thrown again as one on the calling thread. */
  refused?: { code: AppException['code']; details?: FieldProblem[]; params: Record<string, string | number> };
}

/**
 * Work too long for the app's thread (every stream of the process waits while it runs), on a worker
 * thread of its own: `file` (a path without its extension) is a module that calls `answerJobs`. The
 * thread starts with the first job, runs one job at a time in the order given, does not keep the
 * process alive while it waits, stops after `idleMs` without work (its memory goes back), and starts
 * afresh after a crash (the jobs it held then fail). A job's AppException arrives as the same AppException
 * (code, details, params); any other error as an Error with its message. Inputs and outputs are copied between the threads
 * (structured clone: a Buffer arrives as a Uint8Array).
 *
 * Not piscina: its threads `import()` their file, which cannot load the TypeScript sources the tests and
 * `pnpm dev` run (here, the built .js beside, or the .ts through @swc-node/register, as they do).
 */
export class WorkerThread<Input, Output> {
  private worker: Worker | null = null;
  private lastId = 0;
  private idle: NodeJS.Timeout | null = null;
  private readonly jobs = new Map<number, { done: (output: Output) => void; fail: (error: Error) => void }>();

  constructor(
    private readonly file: string,
    private readonly idleMs = 60_000,
  ) {}

  run(input: Input): Promise<Output> {
    const worker = this.worker ?? this.start();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const id = ++this.lastId;
    return new Promise<Output>((done, fail) => {
      this.jobs.set(id, { done, fail });
      worker.ref();
      worker.postMessage({ id, input } satisfies Job);
    });
  }

  /** Jobs given and not answered yet. */
  get pending(): number {
    return this.jobs.size;
  }

  /** Stops the thread; the jobs not answered yet fail. */
  async close(): Promise<void> {
    await this.stop(new Error('the worker thread was stopped'));
  }

  private start(): Worker {
    const worker = new Worker(...workerEntry(this.file));
    worker.unref();
    worker.on('message', ({ id, output, error, refused }: Answer) => {
      const job = this.jobs.get(id);
      this.jobs.delete(id);
      if (!this.jobs.size) this.rest(worker);
      if (!job) return;
      if (refused) job.fail(new AppException(refused.code, refused.details, refused.params));
      else if (error !== undefined) job.fail(new Error(error));
      else job.done(output as Output);
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the worker thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  // Nothing left to do: the thread no longer keeps the process alive, and stops if nothing comes.
  private rest(worker: Worker): void {
    worker.unref();
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.stop(new Error('the worker thread was idle')), this.idleMs);
    this.idle.unref();
  }

  private async stop(reason: Error): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker;
    this.worker = null;
    this.failAll(reason);
    await worker?.terminate();
  }

  private failAll(error: Error): void {
    for (const job of this.jobs.values()) job.fail(error);
    this.jobs.clear();
  }
}

/** In a worker thread's module: answers every job of its WorkerThread with `handle`. */
export function answerJobs<Input, Output>(handle: (input: Input) => Output | Promise<Output>): void {
  parentPort?.on('message', ({ id, input }: Job) => {
    Promise.resolve()
      .then(() => handle(input as Input))
      .then(
        (output) => parentPort!.postMessage({ id, output } satisfies Answer),
        (error: unknown) =>
          parentPort!.postMessage(
            (error instanceof AppException
              ? { id, refused: { code: error.code, details: error.details, params: error.params } }
              : { id, error: error instanceof Error ? error.message : String(error) }) satisfies Answer,
          ),
      );
  });
}

/** A Buffer over the bytes a thread sent (they arrive as a Uint8Array). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
