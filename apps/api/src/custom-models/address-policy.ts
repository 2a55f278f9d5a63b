import ipaddr from 'ipaddr.js';
import { parseNetwork, splitEntries, stripBrackets, type Network } from '../config/network-list';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Which addresses a user's custom model may reach: public unicast ones, plus the networks the
 * operator allows (e.g. a local Ollama). Everything else — loopback, private, link-local (cloud
 * metadata at 169.254.169.254), carrier-grade NAT (100.100.100.200), unique-local, multicast,
 * reserved — is refused. Classification is ipaddr.js's `range()`.
 */
export class AddressPolicy {
  private readonly allowAll: boolean;
  private readonly allowed: Network[];

  constructor(allowedNetworks = '') {
    const entries = splitEntries(allowedNetworks);
    this.allowAll = entries.includes('*');
    this.allowed = entries.filter((e) => e !== '*').map(parseNetwork).filter((n): n is Network => n !== null);
  }

  /** Null when the address may be used; else the name of its range (for logs), e.g. `loopback`. */
  refusal(address: string): string | null {
    let parsed: Address;
    try {
      parsed = ipaddr.parse(stripBrackets(address));
    } catch {
      return 'invalid';
    }
    if (this.allowAll) return null;
    const candidates = [parsed, embeddedIPv4(parsed)].filter((a): a is Address => a !== null);
    if (candidates.some((a) => this.allowed.some(([net, bits]) => a.kind() === net.kind() && a.match(net, bits)))) return null;
    const effective = candidates.at(-1)!;
    const range = effective.range();
    // Teredo and 6to4 tunnel to addresses that cannot be checked here.
    return range === 'unicast' ? null : range;
  }
}

// An IPv6 address that carries an IPv4 one (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16)
// is judged by the IPv4 address it reaches.
function embeddedIPv4(address: Address): ipaddr.IPv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'ipv4Mapped') return v6.toIPv4Address();
  const bytes = v6.toByteArray();
  if (range === 'rfc6052') return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}
