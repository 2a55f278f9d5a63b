import type { ApiError } from '@taleloom/contracts';
import { API_BASE, ApiClientError, CLIENT_ERROR_CODES, notifyUnauthorized } from './api-client';
import { getCurrentLanguage } from './i18n';
import { getToken } from './storage';

export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition; null when the answer carries none (the caller names it then). */
  fileName: string | null;
}

/**
 * A call whose answer is a file (an export), read as a Blob; errors come as the API's envelope, like
 * every other call's. `body` makes it a POST (with the interface language), else a GET.
 */
export async function fetchFile(path: string, body?: object, fallbackCode = 'EXPORT_FAILED'): Promise<DownloadedFile> {
  const headers = new Headers(body ? { 'Content-Type': 'application/json' } : {});
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method: body ? 'POST' : 'GET',
      headers,
      ...(body ? { body: JSON.stringify({ ...body, language: getCurrentLanguage() }) } : {}),
    });
  } catch (error) {
    throw new ApiClientError(0, CLIENT_ERROR_CODES.network, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const envelope = (await response.json().catch(() => ({}))) as Partial<ApiError>;
    if (response.status === 401) notifyUnauthorized();
    throw new ApiClientError(response.status, envelope.code ?? fallbackCode, envelope.message ?? response.statusText, envelope.details);
  }
  return { blob: await response.blob(), fileName: fileNameFromDisposition(response.headers.get('content-disposition')) };
}

/** The file name from a Content-Disposition header: `filename*` (RFC 5987) first, then `filename`. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
  const name = plain?.[1] ?? plain?.[2]?.trim();
  return name || null;
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
