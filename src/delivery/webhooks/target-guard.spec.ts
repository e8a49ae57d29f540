import { describe, expect, it } from 'vitest';
import { parseWebhookUrl, refusalForAddress, resolveWebhookTarget, WebhookTargetRefused } from './target-guard';

const refusalOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return null;
  } catch (e) {
    if (e instanceof WebhookTargetRefused) return e.reason;
    throw e;
  }
};

describe('webhook target guard', () => {
  it.each([
    ['169.254.169.254', 'link_local_or_metadata'],
    ['169.254.1.1', 'link_local_or_metadata'],
    ['fe80::1', 'link_local_or_metadata'],
    ['::ffff:169.254.169.254', 'link_local_or_metadata'],
    ['fd00:ec2::254', 'link_local_or_metadata'],
    ['100.100.100.200', 'link_local_or_metadata'],
    ['0.0.0.0', 'link_local_or_metadata'],
    ['224.0.0.1', 'link_local_or_metadata'],
  ])('always refuses %s', (address, reason) => {
    expect(refusalForAddress(address, false)).toBe(reason);
    expect(refusalForAddress(address, true)).toBe(reason);
  });

  it.each(['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '::1', 'fd12:3456::1', '::ffff:10.0.0.1', '100.64.0.1'])(
    'refuses the private address %s only when private networks are blocked',
    (address) => {
      expect(refusalForAddress(address, false)).toBeNull();
      expect(refusalForAddress(address, true)).toBe('private_network');
    },
  );

  // Review rev1: IPv6 forms that carry an IPv4 address were judged as IPv6 and let through.
  it.each([
    ['64:ff9b::a9fe:a9fe', 'link_local_or_metadata'], // NAT64 well-known prefix to 169.254.169.254
    ['64:ff9b::169.254.169.254', 'link_local_or_metadata'],
    ['2002:a9fe:a9fe::1', 'link_local_or_metadata'], // 6to4
    ['::a9fe:a9fe', 'link_local_or_metadata'], // IPv4-compatible
    ['::ffff:0:a9fe:a9fe', 'link_local_or_metadata'], // IPv4-translated
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link_local_or_metadata'],
  ])('always refuses %s, an IPv4 address in IPv6 form', (address, reason) => {
    expect(refusalForAddress(address, false)).toBe(reason);
    expect(refusalForAddress(address, true)).toBe(reason);
  });

  it.each(['64:ff9b::a00:1', '64:ff9b::7f00:1', '2002:c0a8:101::1', '::127.0.0.1', '::ffff:7f00:1', 'fec0::1', '64:ff9b:1::a00:1'])(
    'refuses %s (a private IPv4 address in IPv6 form, or a local IPv6 range) when private networks are blocked',
    (address) => {
      expect(refusalForAddress(address, false)).toBeNull();
      expect(refusalForAddress(address, true)).toBe('private_network');
    },
  );

  it.each(['64:ff9b::808:808', '2002:808:808::1', '2001:db8::1'])('lets %s through (public IPv4 inside, or plain IPv6)', (address) => {
    expect(refusalForAddress(address, true)).toBeNull();
  });

  it.each(['93.184.216.34', '172.32.0.1', '2606:4700::1111', '8.8.8.8'])('lets the public address %s through', (address) => {
    expect(refusalForAddress(address, true)).toBeNull();
  });

  it('checks the URL form', () => {
    expect(parseWebhookUrl('https://hooks.example.com/x?y=1').hostname).toBe('hooks.example.com');
    expect(() => parseWebhookUrl('ftp://example.com')).toThrow(WebhookTargetRefused);
    expect(() => parseWebhookUrl('not a url')).toThrow(WebhookTargetRefused);
    expect(() => parseWebhookUrl('https://user:pw@example.com/')).toThrow(WebhookTargetRefused);
    expect(() => parseWebhookUrl('file:///etc/passwd')).toThrow(WebhookTargetRefused);
  });

  it('judges every resolved address: one metadata answer among public ones refuses the name', async () => {
    const url = parseWebhookUrl('https://rebind.example/');
    expect(await resolveWebhookTarget(url, { blockPrivateNetworks: true, resolve: async () => ['93.184.216.34'] })).toEqual(['93.184.216.34']);
    expect(await refusalOf(resolveWebhookTarget(url, { blockPrivateNetworks: false, resolve: async () => ['93.184.216.34', '169.254.169.254'] }))).toBe('link_local_or_metadata');
    expect(await refusalOf(resolveWebhookTarget(url, { blockPrivateNetworks: true, resolve: async () => ['10.0.0.5'] }))).toBe('private_network');
    expect(await refusalOf(resolveWebhookTarget(url, { blockPrivateNetworks: false, resolve: async () => [] }))).toBe('unresolvable');
    expect(await refusalOf(resolveWebhookTarget(url, { blockPrivateNetworks: false, resolve: async () => Promise.reject(new Error('ENOTFOUND')) }))).toBe('unresolvable');
  });

  it('takes literal addresses, bracketed IPv6 included, without resolving', async () => {
    const never = async () => {
      throw new Error('must not resolve');
    };
    expect(await resolveWebhookTarget(parseWebhookUrl('http://127.0.0.1:8080/hook'), { blockPrivateNetworks: false, resolve: never })).toEqual(['127.0.0.1']);
    expect(await refusalOf(resolveWebhookTarget(parseWebhookUrl('http://[fe80::1]/'), { blockPrivateNetworks: false, resolve: never }))).toBe('link_local_or_metadata');
    expect(await refusalOf(resolveWebhookTarget(parseWebhookUrl('http://169.254.169.254/latest/meta-data'), { blockPrivateNetworks: false, resolve: never }))).toBe(
      'link_local_or_metadata',
    );
    // A DNS64 resolver answers an IPv4-only name with 64:ff9b::<its IPv4 address>.
    expect(await refusalOf(resolveWebhookTarget(parseWebhookUrl('http://[64:ff9b::169.254.169.254]/'), { blockPrivateNetworks: false, resolve: never }))).toBe(
      'link_local_or_metadata',
    );
    expect(await refusalOf(resolveWebhookTarget(parseWebhookUrl('https://dns64.example/'), { blockPrivateNetworks: true, resolve: async () => ['64:ff9b::a00:5'] }))).toBe(
      'private_network',
    );
  });
});
