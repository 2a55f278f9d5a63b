import { answerJobs, asBuffer } from '../../common/worker-thread';
import { readText, type TextKind } from './read-text';

/** An uploaded file's bytes for the text thread (UploadParserService): an RTF, or text in some encoding. */
export interface TextJob {
  kind: TextKind;
  bytes: Uint8Array;
}

// Refusals go back as the parsers' own AppExceptions (see answerJobs).
answerJobs((job: TextJob) => readText(job.kind, asBuffer(job.bytes)));
