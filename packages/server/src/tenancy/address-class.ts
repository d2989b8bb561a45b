import { BlockList, isIP } from 'node:net';

/**
 * What an attach may do with an IP address: `public` is reachable, `private` only when the operator allows it,
 * `forbidden` never (cloud metadata, unspecified, multicast: no libSQL server lives there).
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

type Subnet = readonly [address: string, prefix: number];

function subnets(ipv4: readonly Subnet[], ipv6: readonly Subnet[]): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of ipv4) list.addSubnet(address, prefix, 'ipv4');
  for (const [address, prefix] of ipv6) list.addSubnet(address, prefix, 'ipv6');
  return list;
}

const FORBIDDEN = subnets(
  [
    ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host
    ['169.254.169.254', 32], // cloud metadata (AWS, GCP, Azure, OCI, DigitalOcean...)
    ['169.254.170.2', 32], // AWS ECS task metadata
    ['100.100.100.200', 32], // Alibaba Cloud metadata
    ['224.0.0.0', 3], // multicast, reserved and broadcast
  ],
  [
    ['::', 128],
    ['fd00:ec2::254', 128], // AWS metadata over IPv6
    ['ff00::', 8], // multicast
  ],
);

const PRIVATE = subnets(
  [
    ['127.0.0.0', 8], // loopback
    ['10.0.0.0', 8], // RFC 1918
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10], // CGNAT
    ['169.254.0.0', 16], // link-local
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation and benchmarking ranges
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
  ],
  [
    ['::1', 128], // loopback
    ['fc00::', 7], // unique local (ULA)
    ['fe80::', 10], // link-local
    ['fec0::', 10], // deprecated site-local
    ['2001:db8::', 32], // documentation
  ],
);

/** The eight 16-bit words of an IPv6 address, or undefined when it is not one. */
function ipv6Words(address: string): number[] | undefined {
  let canonical: string;
  try {
    // The WHATWG serializer writes every IPv6 address in compressed hex (an embedded dotted quad included).
    canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail] = canonical.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16)));
  if (tail === undefined) return words(head);
  const left = words(head);
  const right = words(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const words = ipv6Words(address);
  if (words === undefined || words.length !== 8) return undefined;
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zero(0, 5) && (words[5] === 0xffff || words[5] === 0)) return ipv4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return ipv4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return ipv4(words[1]!, words[2]!);
  return undefined;
}

/** Classifies an IP address; anything that is not one is `forbidden` (fail closed). */
export function classifyAddress(text: string): AddressClass {
  const address = text.split('%')[0] ?? ''; // a link-local zone id (fe80::1%eth0) says nothing about the class
  const family = isIP(address);
  if (family === 0) return 'forbidden';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (FORBIDDEN.check(address, type)) return 'forbidden';
  if (PRIVATE.check(address, type)) return 'private';
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return classifyAddress(inner);
  }
  return 'public';
}

/** Host names of cloud metadata services: refused by name, before any lookup. */
export const METADATA_HOST_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);
