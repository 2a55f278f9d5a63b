import { answerJobs } from '../common/worker-thread';
import { renderDemoPicture } from './demo-picture';

/** One picture for the demo generator's thread (DemoPictureThread). */
export interface DemoPictureJob {
  prompt: string;
  width: number;
  height: number;
}

answerJobs((job: DemoPictureJob) => renderDemoPicture(job.prompt, job.width, job.height));
