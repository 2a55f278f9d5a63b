import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DemoPictureDone, DemoPictureJob } from './demo-picture.worker';

/**
 * The offline demo generator's drawing, on a worker thread of its own: a 1024x1024 picture is about
 * 130 ms of CPU (the scene, then PNG's row filters), which on the app's thread held up every stream of
 * the process for as long. The thread starts with the first picture, draws one picture at a time in the
 * order asked, does not keep the process alive while it waits, and starts afresh after a crash (the
 * pictures it was drawing then fail).
 */
export class DemoPictureThread {
  private worker: Worker | null = null;
  private lastId = 0;
  private readonly jobs = new Map<number, { done: (png: Buffer) => void; fail: (error: Error) => void }>();

  render(prompt: string, width: number, height: number): Promise<Buffer> {
    const worker = this.worker ?? this.start();
    const id = ++this.lastId;
    return new Promise<Buffer>((done, fail) => {
      this.jobs.set(id, { done, fail });
      worker.ref();
      worker.postMessage({ id, prompt, width, height } satisfies DemoPictureJob);
    });
  }

  /** Stops the thread; pictures not drawn yet fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('the demo picture thread was stopped'));
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(...workerEntry());
    worker.unref();
    worker.on('message', ({ id, png, error }: DemoPictureDone) => {
      const job = this.jobs.get(id);
      this.jobs.delete(id);
      if (!this.jobs.size) worker.unref();
      if (!job) return;
      if (png) job.done(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
      else job.fail(new Error(error ?? 'the demo picture was not drawn'));
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the demo picture thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const job of this.jobs.values()) job.fail(error);
    this.jobs.clear();
  }
}

// The built thread's file beside this one; run from the sources (`pnpm dev`, the tests), the TypeScript
// file through the same loader (@swc-node/register).
function workerEntry(): [string, { eval?: boolean }] {
  if (!__filename.endsWith('.ts')) return [join(__dirname, 'demo-picture.worker.js'), {}];
  const source = join(__dirname, 'demo-picture.worker.ts');
  return [`require(${JSON.stringify(require.resolve('@swc-node/register'))}); require(${JSON.stringify(source)});`, { eval: true }];
}
