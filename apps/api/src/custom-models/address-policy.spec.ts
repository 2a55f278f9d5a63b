import { badNetworkEntries } from '../config/network-list';
import { AddressPolicy } from './address-policy';

describe('AddressPolicy (ipaddr.js ranges)', () => {
  const strict = new AddressPolicy('');

  it('allows public unicast addresses, IPv4 and IPv6', () => {
    for (const a of ['8.8.8.8', '104.18.6.192', '2606:4700:4700::1111', '[2a00:1450:4001:82a::200e]']) expect(strict.refusal(a)).toBeNull();
  });

  it('refuses loopback, private, link-local, metadata, CGNAT, unique-local and the like', () => {
    const refused: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '127.8.9.10': 'loopback',
      '10.1.2.3': 'private',
      '172.20.0.1': 'private',
      '192.168.1.10': 'private',
      '169.254.169.254': 'linkLocal',
      '100.100.100.200': 'carrierGradeNat',
      '0.0.0.0': 'unspecified',
      '224.0.0.1': 'multicast',
      '::1': 'loopback',
      '::': 'unspecified',
      'fe80::1': 'linkLocal',
      'fd00:ec2::254': 'uniqueLocal',
      '2001::1': 'teredo',
    };
    for (const [address, range] of Object.entries(refused)) expect([address, strict.refusal(address)]).toEqual([address, range]);
  });

  it('judges IPv6 forms that carry an IPv4 address by that address', () => {
    expect(strict.refusal('::ffff:127.0.0.1')).toBe('loopback');
    expect(strict.refusal('::ffff:169.254.169.254')).toBe('linkLocal');
    expect(strict.refusal('64:ff9b::a00:1')).toBe('private');
    expect(strict.refusal('2002:c0a8:0101::1')).toBe('private');
    expect(strict.refusal('::ffff:8.8.8.8')).toBeNull();
    expect(strict.refusal('not-an-ip')).toBe('invalid');
  });

  it('lets the operator allow networks, and only those', () => {
    const local = new AddressPolicy('127.0.0.1/32, ::1, 192.168.1.0/24');
    expect(local.refusal('127.0.0.1')).toBeNull();
    expect(local.refusal('::1')).toBeNull();
    expect(local.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(local.refusal('192.168.1.77')).toBeNull();
    expect(local.refusal('127.0.0.2')).toBe('loopback');
    expect(local.refusal('192.168.2.1')).toBe('private');
    expect(local.refusal('169.254.169.254')).toBe('linkLocal');
    expect(new AddressPolicy('*').refusal('169.254.169.254')).toBeNull();
  });

  it('names configuration entries that are not addresses or networks', () => {
    expect(badNetworkEntries('127.0.0.1/32,::1,*, 10.0.0.0/8')).toEqual([]);
    expect(badNetworkEntries('localhost,10.0.0.0/33,1.2.3')).toEqual(['localhost', '10.0.0.0/33', '1.2.3']);
  });
});
