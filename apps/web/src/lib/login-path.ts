// Query values keep their slashes readable: /login?redirect=/play&id=42
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/');
}

/** Where an unauthenticated visitor is sent: /login?redirect=<path>, passing `id` along. */
export function buildLoginPath(pathname: string, search = ''): string {
  if (pathname === '/login') return '/login';
  const id = new URLSearchParams(search).get('id');
  let path = `/login?redirect=${encodeQueryValue(pathname)}`;
  if (id) path += `&id=${encodeQueryValue(id)}`;
  return path;
}

/** Where to go after logging in: the `redirect` query (same-origin paths only) plus `?id=`, else /stories. */
export function resolvePostLoginPath(search: string, fallback = '/stories'): string {
  const params = new URLSearchParams(search);
  const redirect = params.get('redirect');
  // Only app-internal paths: no protocol-relative "//host" and no loop back to /login.
  const safe = redirect && redirect.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/\\') && !redirect.startsWith('/login');
  if (!safe) return fallback;
  const id = params.get('id');
  return id ? `${redirect}?id=${encodeURIComponent(id)}` : redirect;
}
