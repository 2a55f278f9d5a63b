import { answerJobs, asBuffer } from '../../common/worker-thread';
import { exportDocx } from './export-docx';
import type { ExportedPicture } from './pictures-by-line';

/** One Word document for the docx export's thread (ExportService): the pictures' bytes arrive as Uint8Arrays. */
export interface DocxJob {
  content: string;
  title: string;
  pictures: readonly (Omit<ExportedPicture, 'data'> & { data: Uint8Array })[];
}

answerJobs((job: DocxJob) => exportDocx(job.content, job.title, job.pictures.map((p) => ({ ...p, data: asBuffer(p.data) }))));
