import type { FieldProblem } from '@taleloom/contracts';
import { AppException } from '../../common/app-exception';
import { answerJobs, asBuffer } from '../../common/worker-thread';
import { decodeText, type DecodedText } from './decode-text';
import { rtfToText } from './rtf-to-text';

/** An uploaded file's bytes for the text thread (UploadParserService): an RTF, or text in some encoding. */
export interface TextJob {
  kind: 'rtf' | 'text';
  bytes: Uint8Array;
}

/** Its text (null: no encoding reads it), or the file's coded refusal (an AppException's parts). */
export type TextDone = { decoded: DecodedText | null } | { refused: { code: AppException['code']; details?: FieldProblem[]; params: Record<string, string | number> } };

answerJobs((job: TextJob): TextDone => {
  const buf = asBuffer(job.bytes);
  try {
    return { decoded: job.kind === 'rtf' ? { text: rtfToText(buf), encoding: 'RTF' } : decodeText(buf) };
  } catch (error) {
    if (error instanceof AppException) return { refused: { code: error.code, details: error.details, params: error.params } };
    throw error;
  }
});
