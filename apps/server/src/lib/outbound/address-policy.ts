import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses the server may send a request to on a tenant's behalf (webhooks). An allowlist:
 * only public unicast addresses pass; loopback, private, link-local, multicast, unspecified, carrier-grade
 * NAT, unique-local, reserved, broadcast and the cloud metadata addresses are refused. IPv6 forms that
 * carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that IPv4 address.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A CIDR the operator allowed with OUTBOUND_ALLOWED_RANGES (e.g. a bank's internal receivers). */
export type AllowedRange = [Address, number];

/** Instance metadata services (AWS, GCP, Azure, OpenStack; ECS; Alibaba): refused even inside an allowed range. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

/** Parses the comma-separated CIDR list; a bare address means that one address. Throws on a bad entry. */
export function parseAllowedRanges(value: string): AllowedRange[] {
  const ranges: AllowedRange[] = [];
  for (const entry of value.split(',')) {
    const text = entry.trim();
    if (text === '') {
      continue;
    }
    if (ipaddr.isValidCIDR(text)) {
      ranges.push(ipaddr.parseCIDR(text));
    } else if (isStrictAddress(text)) {
      const address = ipaddr.parse(text);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else {
      throw new Error(`«${text}» is not a CIDR range such as 10.20.0.0/16 or fd12:3456::/48`);
    }
  }
  return ranges;
}

/** Dotted-decimal IPv4 or IPv6 only: ipaddr.js alone also takes forms such as 0x7f.1. */
function isStrictAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));
}

function ipv4FromLow32(parts: number[]): ipaddr.IPv4 {
  const high = parts[6] ?? 0;
  const low = parts[7] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 address an IPv6 address stands for, if it embeds one; else the address itself. */
export function effectiveAddress(address: Address): Address {
  if (address.kind() === 'ipv4') {
    return address;
  }
  const v6 = address as ipaddr.IPv6;
  const parts = v6.parts;
  if (v6.isIPv4MappedAddress()) {
    return v6.toIPv4Address();
  }
  const range = v6.range();
  if (range === 'rfc6145' || range === 'rfc6052') {
    return ipv4FromLow32(parts);
  }
  if (range === '6to4') {
    const a = parts[1] ?? 0;
    const b = parts[2] ?? 0;
    return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
  }
  // Deprecated IPv4-compatible ::a.b.c.d (not :: or ::1 themselves).
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1)) {
    return ipv4FromLow32(parts);
  }
  return v6;
}

function inRange(address: Address, [network, bits]: AllowedRange): boolean {
  return address.kind() === network.kind() && address.match(network, bits);
}

/** Judges one IP address (as DNS or the URL gave it). */
export function classifyAddress(text: string, allowedRanges: readonly AllowedRange[] = []): AddressVerdict {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) {
    return { allowed: false, range: 'invalid' };
  }
  const original = ipaddr.parse(bare);
  const address = effectiveAddress(original);
  if (METADATA_ADDRESSES.has(address.toString()) || METADATA_ADDRESSES.has(original.toString())) {
    return { allowed: false, range: 'metadata' };
  }
  if (allowedRanges.some((range) => inRange(address, range) || inRange(original, range))) {
    return { allowed: true };
  }
  if (address.kind() === 'ipv4') {
    const range = (address as ipaddr.IPv4).range();
    return range === 'unicast' ? { allowed: true } : { allowed: false, range };
  }
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  // Global unicast is 2000::/3; everything outside it is special-purpose or unassigned.
  const globalUnicast = ((v6.parts[0] ?? 0) & 0xe000) === 0x2000;
  return range === 'unicast' && globalUnicast ? { allowed: true } : { allowed: false, range };
}
