/**
 * Stored-XSS probes: each would set `window.__pwned` (or open a dialog) if it ever ran. Used by the
 * API's export test and by the browser test that opens stories carrying them (apps/web/e2e/security.e2e.ts).
 */
export const XSS_PAYLOADS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=2">',
  '[click me](javascript:window.__pwned=3)',
  '<a href="javascript:window.__pwned=4">a link</a>',
  '"><svg onload=window.__pwned=5>',
  '</title></textarea><script>window.__pwned=6</script>',
  '<iframe srcdoc="<script>parent.__pwned=7</script>"></iframe>',
  'javascript:window.__pwned=8',
  "{{constructor.constructor('window.__pwned=9')()}}",
  '<details open ontoggle=window.__pwned=10>',
] as const;
