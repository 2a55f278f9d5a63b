import type { IncomingHttpHeaders } from 'node:http';
import { DOCUMENT_ONLY_HEADERS } from '../../src/web/serve-web-app';

/**
 * The security headers of a hashed script or stylesheet (see serve-web-app.ts): none of those only a
 * document acts on, and those a subresource is judged by. `what` names the answer in a failure.
 */
export function expectSubresourceHeaders(headers: IncomingHttpHeaders, what: string): void {
  for (const name of DOCUMENT_ONLY_HEADERS) expect({ what, [name]: headers[name.toLowerCase()] }).toEqual({ what, [name]: undefined });
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['strict-transport-security']).toMatch(/max-age=(\d{8,}|3[1-9]\d{6})/);
  expect(headers['x-powered-by']).toBeUndefined();
}
