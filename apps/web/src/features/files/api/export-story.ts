import { useMutation } from '@tanstack/react-query';
import type { ExportFormat } from '@taleloom/contracts';
import { fetchFile, type DownloadedFile } from '../../../lib/download';

/**
 * `POST /api/export`: answers the file itself, so this reads a Blob rather than JSON. With `story_id`
 * and no `content`, the server exports the story's text as the caller reads it.
 */
export function exportStory(body: { content?: string; format: ExportFormat; name?: string; story_id?: string }): Promise<DownloadedFile> {
  return fetchFile('/export', body);
}

export function useExportStory() {
  return useMutation({ mutationFn: exportStory });
}
