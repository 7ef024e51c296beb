// Which machines a sidecar started with --allow-remote-sidecar serves besides this one:
// the CIDRs given with --allow-remote-peer (IPv4 and IPv6; a bare address is one host).
// The door checks the connection's socket address against it (loopback always passes),
// because a Host header is whatever a non-browser client writes.
import { BlockList, isIP } from 'node:net';

export interface PeerAllowList {
  /** The CIDRs as given, normalized (a bare address gets /32 or /128). */
  cidrs: string[];
  /** Whether a socket's remote address (IPv4, IPv6 or IPv4-mapped IPv6) is inside one of them. */
  allows(address: string): boolean;
}

/** Throws an Error naming the first text that is not an address or CIDR. */
export function parsePeerCidrs(texts: readonly string[]): PeerAllowList {
  const list = new BlockList();
  const cidrs = texts.map((text) => {
    const match = /^([^/\s]+?)(?:\/(\d{1,3}))?$/.exec(text.trim());
    const family = match ? isIP(match[1]!) : 0;
    const width = family === 6 ? 128 : 32;
    const prefix = match?.[2] === undefined ? width : Number(match[2]);
    if (!match || family === 0 || prefix > width) throw new Error(`--allow-remote-peer ${text}: not an IPv4 or IPv6 address or CIDR (like 192.168.1.0/24 or fd00::/8)`);
    list.addSubnet(match[1]!, prefix, family === 6 ? 'ipv6' : 'ipv4');
    return `${match[1]}/${prefix}`;
  });
  return {
    cidrs,
    allows(address) {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}
