import { useMutation } from '@tanstack/react-query';
import type { ApiError, ExportFormat } from '@taleloom/contracts';
import { API_BASE, ApiClientError, CLIENT_ERROR_CODES, notifyUnauthorized } from '../../../lib/api-client';
import { getCurrentLanguage } from '../../../lib/i18n';
import { getToken } from '../../../lib/storage';
import { fileNameFromDisposition } from '../utils/file-name';

export interface ExportedFile {
  blob: Blob;
  /** From Content-Disposition; null when the answer carries none (the caller names it then). */
  fileName: string | null;
}

/** `POST /api/export`: answers the file itself, so this reads a Blob rather than JSON. */
export async function exportStory(body: { content: string; format: ExportFormat; name?: string; story_id?: string }): Promise<ExportedFile> {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/export`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, language: getCurrentLanguage() }),
    });
  } catch (error) {
    throw new ApiClientError(0, CLIENT_ERROR_CODES.network, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const envelope = (await response.json().catch(() => ({}))) as Partial<ApiError>;
    if (response.status === 401) notifyUnauthorized();
    throw new ApiClientError(response.status, envelope.code ?? 'EXPORT_FAILED', envelope.message ?? response.statusText, envelope.details);
  }
  return { blob: await response.blob(), fileName: fileNameFromDisposition(response.headers.get('content-disposition')) };
}

export function useExportStory() {
  return useMutation({ mutationFn: exportStory });
}

/** Hands a Blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
