import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, type ApiSuccess, type UploadParseData } from '@taleloom/contracts';
import { ApiClientError, apiClient } from './api-client';
import { getCurrentLanguage } from './i18n';

/** `POST /api/upload_parse`: the file as multipart field `file`; the answer carries the text. */
export async function uploadParse(file: File, signal?: AbortSignal): Promise<UploadParseData> {
  const form = new FormData();
  // The language goes first so the server knows it even when the file is refused mid-way.
  form.append('language', getCurrentLanguage());
  form.append('file', file, file.name);
  const response = await apiClient.post<ApiSuccess<UploadParseData>>('/upload_parse', form, { signal });
  return response.data;
}

/**
 * Checked before sending, so the answer is immediate (the server checks again by content): the name's
 * extension (one of `extensions`) and the size.
 */
export function checkUpload(file: File, extensions: readonly string[] = UPLOAD_EXTENSIONS): ApiClientError | null {
  const dot = file.name.lastIndexOf('.');
  const ext = dot < 0 ? '' : file.name.slice(dot).toLowerCase();
  if (!extensions.includes(ext)) return new ApiClientError(415, 'FILE_TYPE_UNSUPPORTED', '');
  if (file.size > UPLOAD_MAX_BYTES) return new ApiClientError(413, 'FILE_TOO_LARGE', '');
  return null;
}
