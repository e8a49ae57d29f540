import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which webhook targets we refuse (contract 7.5). Link-local and cloud metadata addresses are
 * always refused; private, loopback and other internal ranges when WEBHOOK_BLOCK_PRIVATE_NETWORKS
 * is on, which it is by default when NODE_ENV=production. The check runs on the RESOLVED addresses, at
 * registration and again at every delivery, so a DNS answer that changes later (rebinding)
 * cannot reach a refused address.
 */
const ALWAYS_REFUSED = new BlockList();
ALWAYS_REFUSED.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, incl. 169.254.169.254 metadata
ALWAYS_REFUSED.addSubnet('fe80::', 10, 'ipv6'); // link-local
ALWAYS_REFUSED.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
ALWAYS_REFUSED.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
ALWAYS_REFUSED.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network": 0.0.0.0 reaches the local host
ALWAYS_REFUSED.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
ALWAYS_REFUSED.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, broadcast
ALWAYS_REFUSED.addSubnet('ff00::', 8, 'ipv6'); // multicast
ALWAYS_REFUSED.addAddress('::', 'ipv6');

const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT
PRIVATE.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6'); // unique local
PRIVATE.addSubnet('fec0::', 10, 'ipv6'); // site-local (deprecated, still routed by some networks)
PRIVATE.addSubnet('64:ff9b:1::', 48, 'ipv6'); // local-use NAT64: the IPv4 address inside depends on the operator's prefix

export type TargetRefusal = 'invalid_url' | 'unsupported_scheme' | 'credentials_in_url' | 'unresolvable' | 'link_local_or_metadata' | 'private_network';

export class WebhookTargetRefused extends Error {
  constructor(
    readonly reason: TargetRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const groups = halves.length === 2 ? [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

const ipv4Of = (high: number, low: number): string => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * IPv6 addresses that carry an IPv4 address the packets end up at: judge that IPv4 address.
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96, not
 * :: or ::1), NAT64's well-known prefix (64:ff9b::/96: on an IPv6-only network with DNS64 it
 * reaches any IPv4 address, 169.254.169.254 and 10/8 included) and 6to4 (2002::/16).
 */
function embeddedIpv4(groups: number[]): string | null {
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && groups[5] === 0xffff) return ipv4Of(groups[6], groups[7]);
  if (zero(0, 4) && groups[4] === 0xffff && groups[5] === 0) return ipv4Of(groups[6], groups[7]);
  if (zero(0, 6) && groups[6] !== 0) return ipv4Of(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return ipv4Of(groups[6], groups[7]);
  if (groups[0] === 0x2002) return ipv4Of(groups[1], groups[2]);
  return null;
}

/** IPv4 in an IPv6 disguise is judged as IPv4. */
function normalize(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) !== 6) return { address, family: 'ipv4' };
  const groups = ipv6Groups(address);
  const ipv4 = groups && embeddedIpv4(groups);
  return ipv4 ? { address: ipv4, family: 'ipv4' } : { address, family: 'ipv6' };
}

/** The reason an address is refused, or null when it may be called. */
export function refusalForAddress(address: string, blockPrivateNetworks: boolean): TargetRefusal | null {
  const { address: a, family } = normalize(address);
  if (ALWAYS_REFUSED.check(a, family)) return 'link_local_or_metadata';
  if (blockPrivateNetworks && PRIVATE.check(a, family)) return 'private_network';
  return null;
}

/** Checks the URL's form (no network): http(s), no user:password, a host. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookTargetRefused('invalid_url', 'url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetRefused('unsupported_scheme', 'url must use http or https');
  if (url.username || url.password) throw new WebhookTargetRefused('credentials_in_url', 'url must not contain credentials');
  if (!url.hostname) throw new WebhookTargetRefused('invalid_url', 'url must have a host');
  return url;
}

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((r) => r.address);

/**
 * Resolves the URL's host and returns the addresses it may be called at. Every resolved
 * address must pass: a name that resolves to one public and one metadata address is refused.
 * The caller connects to one of the returned addresses (not to the name again).
 */
export async function resolveWebhookTarget(url: URL, options: { blockPrivateNetworks: boolean; resolve?: Resolver }): Promise<string[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      throw new WebhookTargetRefused('unresolvable', `the host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new WebhookTargetRefused('unresolvable', `the host ${host} does not resolve`);
  }
  for (const address of addresses) {
    const refusal = refusalForAddress(address, options.blockPrivateNetworks);
    if (refusal === 'link_local_or_metadata') throw new WebhookTargetRefused(refusal, `${host} resolves to a link-local or metadata address (${address})`);
    if (refusal === 'private_network')
      throw new WebhookTargetRefused(refusal, `${host} resolves to a private or loopback address (${address}); this server refuses those (WEBHOOK_BLOCK_PRIVATE_NETWORKS)`);
  }
  return addresses;
}
