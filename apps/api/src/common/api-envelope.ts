import type { ApiSuccess } from '@taleloom/contracts';

/** The success envelope every JSON endpoint answers. */
export function ok<T>(data: T, message = 'ok'): ApiSuccess<T> {
  return { status: 'success', message, data };
}
