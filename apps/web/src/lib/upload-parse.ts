import type { ApiSuccess, UploadParseData } from '@taleloom/contracts';
import { apiClient } from './api-client';
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
