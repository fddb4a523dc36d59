import { describe, expect, it } from 'vitest';
import { classifyAddress, parseAllowedRanges } from './address-policy.ts';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    // IPv6 forms that carry an internal IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['[::1]', 'loopback'],
    ['not-an-ip', 'invalid'],
  ])('refuses %s (%s)', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '77.88.55.242',
    '2a02:6b8::2:242',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it('allows exactly the ranges the operator listed, never the metadata addresses', () => {
    const ranges = parseAllowedRanges('10.20.0.0/16, 127.0.0.0/8,fd12:3456::/48, 169.254.0.0/16');
    expect(classifyAddress('10.20.3.4', ranges)).toEqual({ allowed: true });
    expect(classifyAddress('::ffff:10.20.3.4', ranges)).toEqual({ allowed: true });
    expect(classifyAddress('127.0.0.1', ranges)).toEqual({ allowed: true });
    expect(classifyAddress('fd12:3456:0:1::5', ranges)).toEqual({ allowed: true });
    expect(classifyAddress('10.21.0.1', ranges)).toEqual({ allowed: false, range: 'private' });
    expect(classifyAddress('192.168.0.1', ranges)).toEqual({ allowed: false, range: 'private' });
    expect(classifyAddress('::1', ranges)).toEqual({ allowed: false, range: 'loopback' });
    expect(classifyAddress('169.254.169.254', ranges)).toEqual({ allowed: false, range: 'metadata' });
    expect(classifyAddress('169.254.1.1', ranges)).toEqual({ allowed: true });
  });
});

describe('parseAllowedRanges', () => {
  it('reads CIDRs and single addresses, ignoring blanks', () => {
    expect(parseAllowedRanges('')).toEqual([]);
    expect(parseAllowedRanges(' , ')).toEqual([]);
    const [single] = parseAllowedRanges('10.0.0.7');
    expect(single?.[1]).toBe(32);
    expect(classifyAddress('10.0.0.7', parseAllowedRanges('10.0.0.7'))).toEqual({ allowed: true });
    expect(classifyAddress('10.0.0.8', parseAllowedRanges('10.0.0.7'))).toEqual({
      allowed: false,
      range: 'private',
    });
  });

  it.each(['10.0.0.0/33', '10.0.0', '0x7f.1', 'bank.ru', '10.0.0.0/8;', 'fd00::/129'])(
    'refuses «%s»',
    (entry) => {
      expect(() => parseAllowedRanges(`127.0.0.0/8,${entry}`)).toThrow(`«${entry}» is not a CIDR range`);
    },
  );
});
