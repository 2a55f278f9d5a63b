import { join } from 'node:path';
import { asBuffer, WorkerThread } from '../common/worker-thread';
import type { DemoPictureJob } from './demo-picture.worker';

/**
 * The offline demo generator's drawing, on a worker thread of its own (WorkerThread): a 1024x1024
 * picture is about 100 to 130 ms of CPU (the scene, then PNG's row filters), which on the app's thread
 * held up every stream of the process for as long. One picture at a time, in the order asked.
 */
export class DemoPictureThread {
  private readonly thread = new WorkerThread<DemoPictureJob, Uint8Array>(join(__dirname, 'demo-picture.worker'));

  async render(prompt: string, width: number, height: number): Promise<Buffer> {
    return asBuffer(await this.thread.run({ prompt, width, height }));
  }

  /** Stops the thread; pictures not drawn yet fail. */
  close(): Promise<void> {
    return this.thread.close();
  }
}
