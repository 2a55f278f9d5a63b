import { parentPort } from 'node:worker_threads';
import { renderDemoPicture } from './demo-picture';

/** What the app's thread asks the demo picture thread (DemoPictureThread): one picture. */
export interface DemoPictureJob {
  id: number;
  prompt: string;
  width: number;
  height: number;
}

/** Its answer: the PNG, or why it could not be drawn. */
export interface DemoPictureDone {
  id: number;
  png?: Uint8Array;
  error?: string;
}

// The demo generator's thread: draws the pictures it is asked for, one after another.
parentPort?.on('message', (job: DemoPictureJob) => {
  renderDemoPicture(job.prompt, job.width, job.height).then(
    (png) => parentPort!.postMessage({ id: job.id, png } satisfies DemoPictureDone),
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies DemoPictureDone),
  );
});
