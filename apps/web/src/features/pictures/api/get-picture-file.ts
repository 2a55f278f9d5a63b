import { useQuery } from '@tanstack/react-query';
import { ApiClientError, CLIENT_ERROR_CODES, notifyUnauthorized } from '../../../lib/api-client';
import { getToken } from '../../../lib/storage';
import { pictureKeys } from './picture-keys';

/**
 * `GET /api/images/{id}`: the picture itself. An <img> cannot send the bearer token, so it is fetched
 * and shown from a Blob; the server's private, immutable caching lets the browser keep it.
 */
export async function getPictureFile(url: string): Promise<Blob> {
  const headers = new Headers({ Accept: 'image/*' });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch (error) {
    throw new ApiClientError(0, CLIENT_ERROR_CODES.network, error instanceof Error ? error.message : String(error));
  }
  if (response.status === 401) notifyUnauthorized();
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new ApiClientError(response.status, body.code ?? 'PICTURE_NOT_FOUND', body.message ?? response.statusText);
  }
  return response.blob();
}

/** The picture's Blob; a picture never changes, so it is fetched once per page. */
export function usePictureFile(url: string | null) {
  return useQuery({
    queryKey: pictureKeys.file(url ?? ''),
    queryFn: () => getPictureFile(url!),
    enabled: Boolean(url),
    staleTime: Infinity,
    retry: 1,
  });
}
