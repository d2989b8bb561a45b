import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api-error.js';
import { classifyAddress } from '../src/tenancy/address-class.js';
import { AttachPolicy, type AttachPolicyConfig, type Resolve } from '../src/tenancy/attach-policy.js';
import { parseAttachUrl } from '../src/tenancy/attach-url.js';

/**
 * The attach policy, unit level: the URL as the driver reads it (a host the allowlist did not judge must never be
 * the one connected to), and the address policy with a fake DNS.
 */

/** The installed driver's own parser (`@libsql/core/uri`), reached through `@libsql/client`. */
function driverParseUri(text: string): { scheme: string; authority?: { host: string; port?: number } } {
  const fromServer = createRequire(path.join(process.cwd(), 'packages/server/package.json'));
  const fromClient = createRequire(fromServer.resolve('@libsql/client'));
  return fromClient('@libsql/core/uri').parseUri(text);
}

function refusal(text: string): string {
  try {
    parseAttachUrl(text);
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  return 'accepted';
}

describe('parseAttachUrl', () => {
  it('reads host and port as the installed libSQL driver does', () => {
    for (const url of [
      'libsql://acme-db.example.com',
      'libsql://db.example.com:8443?tls=1',
      'libsql://db.example.com:8080?tls=0',
      'http://127.0.0.1:8080',
      'https://DB.Example.com/base',
      'ws://db.example.com:81',
      'wss://[2001:db8::1]:8443',
    ]) {
      const target = parseAttachUrl(url);
      const driver = driverParseUri(url);
      expect(target.host, url).toBe(driver.authority?.host.toLowerCase());
      if (driver.authority?.port !== undefined) expect(target.port, url).toBe(driver.authority.port);
    }
    expect(parseAttachUrl('libsql://db.example.com')).toMatchObject({ protocol: 'https:', port: 443 });
    expect(parseAttachUrl('libsql://db.example.com:8080?tls=0')).toMatchObject({ protocol: 'http:', port: 8080 });
    // ws(s) URLs are reached over HTTP(S), so every response goes through the size-capped fetch.
    expect(parseAttachUrl('wss://db.example.com/x').url).toBe('https://db.example.com:443/x');
  });

  it('refuses what the driver and the WHATWG parser read differently', () => {
    const bypass = 'ws://db.allowed.test\\@127.0.0.1:8080';
    // The disagreement a bypass would use: WHATWG sees db.allowed.test, the driver connects to 127.0.0.1.
    expect(new URL(bypass).hostname).toBe('db.allowed.test');
    expect(driverParseUri(bypass).authority?.host).toBe('127.0.0.1');
    for (const url of [
      bypass,
      'http://user:pass@db.example.com',
      'http://db.example.com\\evil.test',
      'http://db.example.com%2F@evil.test',
      'http://db.example.com#@evil.test',
      'http://db.exa mple.com',
      'http://dб.example.com',
      'http://2130706433',
      'http://0x7f000001',
      'http://127.1',
      'http://ns.127.0.0.1:8080',
      'http://[::ffff:127.0.0.1]',
      'http://[0:0::1]',
      'http://db.example.com.',
      'http://db.example.com:99999',
      'http://db.example.com?authToken=abc',
      'http://db.example.com?tls=1',
      'libsql://db.example.com?tls=0',
      'file:/tmp/control.db',
      'ftp://db.example.com',
      'not a url',
    ]) {
      expect(refusal(url), url).toMatch(/^attachDbUrl: /);
    }
  });
});

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'private'],
    ['10.0.0.5', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.1.1', 'private'],
    ['169.254.1.1', 'private'],
    ['::1', 'private'],
    ['fd12::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['2002:a9fe:a9fe::1', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['239.1.1.1', 'forbidden'],
    ['not-an-address', 'forbidden'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('AttachPolicy: host names are judged by what they resolve to', () => {
  const dns: Record<string, string[]> = {
    'public.example': ['203.0.114.7'],
    'rebound.example': ['169.254.169.254'],
    'internal.example': ['10.0.0.9'],
    'mixed.example': ['203.0.114.7', '10.0.0.9'],
    'sqld.internal': ['10.0.0.5'],
    'tenant-a.evil.example': ['10.0.0.5'],
  };
  const resolve: Resolve = async (host) => (dns[host] ?? []).map((address) => ({ address, family: 4 }));
  const base: AttachPolicyConfig = {
    attachAllowedHosts: [],
    attachAllowPrivateNetworks: false,
    sqldUrl: undefined,
    sqldAdminUrl: undefined,
    controlDbUrl: 'file:control.db',
    defaultDbUrl: 'file:workspace.db',
  };
  const lookup = (config: AttachPolicyConfig, url: string) =>
    new Promise<string>((done) => {
      const target = parseAttachUrl(url);
      new AttachPolicy(config, resolve).lookup(target)(target.host, { all: true }, (error, addresses) =>
        done(error ? ((error as { code?: string }).code ?? 'error') : JSON.stringify(addresses)),
      );
    });

  it('hands the socket only checked addresses, and refuses a name if any of its addresses is refused', async () => {
    expect(await lookup(base, 'https://public.example')).toBe('[{"address":"203.0.114.7","family":4}]');
    expect(await lookup(base, 'https://rebound.example')).toBe('ATTACH_ADDRESS_REFUSED');
    expect(await lookup(base, 'https://internal.example')).toBe('ATTACH_ADDRESS_REFUSED');
    expect(await lookup(base, 'https://mixed.example')).toBe('ATTACH_ADDRESS_REFUSED');
    expect(await lookup(base, 'https://nowhere.example')).toBe('ATTACH_ADDRESS_REFUSED');
    const privateAllowed = { ...base, attachAllowPrivateNetworks: true };
    expect(await lookup(privateAllowed, 'https://internal.example')).toContain('10.0.0.9');
    expect(await lookup(privateAllowed, 'https://rebound.example')).toBe('ATTACH_ADDRESS_REFUSED');
    const listed = { ...base, attachAllowedHosts: ['internal.example'] };
    expect(await lookup(listed, 'https://internal.example')).toContain('10.0.0.9');
  });

  it("refuses any name that resolves to the provisioner's sqld on its port, private networks allowed or not", async () => {
    const config = { ...base, attachAllowPrivateNetworks: true, sqldUrl: 'http://sqld.internal:8080' };
    // A key holder's own DNS name whose first label is a victim's namespace, pointing at the operator's sqld.
    expect(await lookup(config, 'http://tenant-a.evil.example:8080')).toBe('ATTACH_ADDRESS_REFUSED');
    expect(await lookup(config, 'http://tenant-a.evil.example:8081')).toContain('10.0.0.5');
    const policy = new AttachPolicy(config, resolve);
    await expect(policy.checkTarget(parseAttachUrl('http://10.0.0.5:8080'))).rejects.toThrow(/attachDbUrl/);
    await expect(policy.checkTarget(parseAttachUrl('http://tenant-a.sqld.internal:9999'))).rejects.toThrow(
      /attachDbUrl/,
    );
    await expect(policy.checkTarget(parseAttachUrl('http://10.0.0.5:8081'))).resolves.toBeUndefined();
  });
});
