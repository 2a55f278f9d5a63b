import type { TFunction } from 'i18next';
import { isApiClientError } from './api-client';
import { i18n } from './i18n';

/** The user-facing text for an error: our translation of its code, else the server's message. */
export function getErrorMessage(error: unknown, t: TFunction): string {
  if (isApiClientError(error)) {
    const key = `errors.${error.code}`;
    // Codes are data from the server, so the key is checked at run time rather than typed.
    if (i18n.exists(key)) {
      return (t as unknown as (k: string, o?: object) => string)(key, error.params ?? {});
    }
    if (error.message) return error.message;
  }
  return t('errors.UNKNOWN');
}
