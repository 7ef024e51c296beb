// parsePeerCidrs (src/sidecar/peer-allow-list.ts): the non-loopback socket addresses a sidecar
// started with --allow-remote-sidecar serves, as the door asks about each connection.
import { expect, it } from 'vitest';
import { parsePeerCidrs } from '../../src/sidecar/peer-allow-list.js';

it('matches IPv4, IPv6 and IPv4-mapped IPv6 peers against IPv4 and IPv6 CIDRs', () => {
  const list = parsePeerCidrs(['192.168.1.0/24', '10.1.2.3', 'fd00::/8', '2001:db8::1']);
  expect(list.cidrs).toEqual(['192.168.1.0/24', '10.1.2.3/32', 'fd00::/8', '2001:db8::1/128']);
  expect(list.allows('192.168.1.77')).toBe(true);
  expect(list.allows('::ffff:192.168.1.77')).toBe(true);
  expect(list.allows('192.168.2.1')).toBe(false);
  expect(list.allows('10.1.2.3')).toBe(true);
  expect(list.allows('10.1.2.4')).toBe(false);
  expect(list.allows('fd12:3456::9')).toBe(true);
  expect(list.allows('fe80::1')).toBe(false);
  expect(list.allows('2001:db8::1')).toBe(true);
  expect(list.allows('2001:db8::2')).toBe(false);
  expect(list.allows('')).toBe(false);
  expect(list.allows('not-an-address')).toBe(false);
});

it('allows nobody when given nothing', () => {
  expect(parsePeerCidrs([]).allows('192.168.1.1')).toBe(false);
});

it.each(['10.0.0.0/33', 'fd00::/129', 'example.com', '10.0.0.0/', '/8', '10.0.0.0/8/8', ''])('refuses %j, naming it', (text) => {
  expect(() => parsePeerCidrs([text])).toThrow(`--allow-remote-peer ${text}: not an IPv4 or IPv6 address or CIDR`);
});
