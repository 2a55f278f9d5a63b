import ipaddr from 'ipaddr.js';

/** An address and its prefix length: one entry of CUSTOM_MODEL_ALLOWED_NETWORKS. */
export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Entries of CUSTOM_MODEL_ALLOWED_NETWORKS that are neither an address, a CIDR nor `*`. */
export function badNetworkEntries(value: string): string[] {
  return splitEntries(value).filter((e) => e !== '*' && parseNetwork(e) === null);
}

export function splitEntries(value: string): string[] {
  return value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

export function parseNetwork(entry: string): Network | null {
  // Only the usual dotted quad for IPv4 (ipaddr.js also reads legacy forms like 1.2.3).
  const host = entry.split('/')[0];
  if (!host.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(host)) return null;
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry) as Network;
    const address = ipaddr.parse(stripBrackets(entry));
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
