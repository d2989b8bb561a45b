import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { ApiError } from '../api-error.js';
import type { ServerConfig } from '../config.js';
import { classifyAddress, METADATA_HOST_NAMES } from './address-class.js';
import type { AttachTarget } from './attach-url.js';

/** The configuration an attach policy reads. */
export type AttachPolicyConfig = Pick<
  ServerConfig,
  'attachAllowedHosts' | 'attachAllowPrivateNetworks' | 'sqldUrl' | 'sqldAdminUrl' | 'controlDbUrl' | 'defaultDbUrl'
>;

/** A resolved address, as `dns.lookup(..., { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (tests pass their own). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Why an attach connection was refused before it was made; logged by code, never told to the caller. */
export class AttachRefusal extends Error {
  constructor(readonly code: 'ATTACH_ADDRESS_REFUSED' | 'ATTACH_RESPONSE_TOO_LARGE') {
    super(code);
    this.name = 'AttachRefusal';
  }
}

/** One endpoint of the server's own libSQL servers (the provisioner's sqld, its admin API, the control database). */
interface OwnEndpoint {
  host: string;
  port: number;
}

function ownEndpoint(url: string | undefined): OwnEndpoint | undefined {
  if (url === undefined || url.startsWith('file:')) return undefined;
  try {
    const parsed = new URL(url.replace(/^(libsql|wss):/i, 'https:').replace(/^ws:/i, 'http:'));
    const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    return { host: parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
  } catch {
    return undefined;
  }
}

const REFUSED = "this server does not attach databases at this address (see MEMORY_ATTACH_* in the server's README)";

/**
 * Where `attach` may connect (docs/architecture.md#trust-and-work-isolation): never to cloud metadata or unspecified addresses, nor to the server's own
 * libSQL servers (by name, `<namespace>.<name>`, or resolved address and port); to loopback, private and link-local
 * addresses only when MEMORY_ATTACH_ALLOW_PRIVATE_NETWORKS is on or the host is listed in MEMORY_ATTACH_ALLOWED_HOSTS;
 * and, when that list is set, only to hosts in it. Host names are checked again on every connection, address by
 * address, by the lookup the attach fetch connects with.
 */
export class AttachPolicy {
  private readonly own: OwnEndpoint[];

  constructor(
    private readonly config: AttachPolicyConfig,
    private readonly resolve: Resolve = systemResolve,
  ) {
    const urls = [config.sqldUrl, config.sqldAdminUrl, config.controlDbUrl, config.defaultDbUrl];
    this.own = urls.flatMap((url) => ownEndpoint(url) ?? []);
  }

  /** Checks a parsed URL before any connection: 400 INVALID_REQUEST (one message for every refusal) when refused. */
  async checkTarget(target: AttachTarget): Promise<void> {
    const refused = this.refusesName(target) || (target.isAddress && !(await this.allows(target, target.host)));
    if (refused) throw new ApiError('INVALID_REQUEST', `attachDbUrl: ${REFUSED}`, { field: 'attachDbUrl' });
  }

  /**
   * The rules on the target's name and port, which need no resolution: cloud metadata names, a host missing from
   * MEMORY_ATTACH_ALLOWED_HOSTS when it is set, the server's own libSQL servers by name. Checked when attaching and
   * again before every request to an attached database, so a policy tightened since the attach applies at once.
   */
  refusesName(target: AttachTarget): boolean {
    const { attachAllowedHosts } = this.config;
    return (
      METADATA_HOST_NAMES.has(target.host) ||
      (attachAllowedHosts.length > 0 && !attachAllowedHosts.includes(target.host)) ||
      this.own.some(
        (own) => target.host.endsWith(`.${own.host}`) || (target.host === own.host && target.port === own.port),
      )
    );
  }

  /** Whether a connection to `address` (the target's literal address, or one its name resolved to) is allowed. */
  async allows(target: AttachTarget, address: string): Promise<boolean> {
    const kind = classifyAddress(address);
    if (kind === 'forbidden') return false;
    const listed = this.config.attachAllowedHosts.includes(target.host);
    if (kind === 'private' && !this.config.attachAllowPrivateNetworks && !listed) return false;
    return !(await this.isOwn(address, target.port));
  }

  /**
   * A `lookup` for `node:http` that resolves the target's name and hands the socket only addresses the policy
   * allows: the address checked is the address connected to (no second resolution a DNS rebinding could change).
   */
  lookup(target: AttachTarget): LookupFunction {
    return (hostname, options, callback) => {
      const checked = (async () => {
        if (hostname.toLowerCase() !== target.host) throw new AttachRefusal('ATTACH_ADDRESS_REFUSED');
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = (await this.resolve(hostname)).filter((entry) => wanted === 0 || entry.family === wanted);
        // One refused address refuses the name: a round-robin answer must not smuggle one in.
        const verdicts = await Promise.all(addresses.map((entry) => this.allows(target, entry.address)));
        if (addresses.length === 0 || verdicts.includes(false)) throw new AttachRefusal('ATTACH_ADDRESS_REFUSED');
        return addresses;
      })();
      checked.then(
        (addresses) => {
          const first = addresses[0] as ResolvedAddress;
          if (options.all) (callback as (error: null, all: ResolvedAddress[]) => void)(null, addresses);
          else callback(null, first.address, first.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }

  /** Whether `address:port` is one of the server's own libSQL servers (a local one: any local address). */
  private async isOwn(address: string, port: number): Promise<boolean> {
    for (const own of this.own) {
      if (own.port !== port) continue;
      const addresses = isIP(own.host)
        ? [own.host]
        : await this.resolve(own.host).then(
            (entries) => entries.map((entry) => entry.address),
            () => [],
          );
      if (addresses.includes(address)) return true;
      if (addresses.some(isLocal) && isLocal(address)) return true;
    }
    return false;
  }
}

/** Loopback, unspecified, or an address of one of this machine's interfaces. */
function isLocal(address: string): boolean {
  if (/^(127\.|0\.0\.0\.0$|::1?$|::ffff:127\.)/.test(address)) return true;
  return Object.values(networkInterfaces()).some((entries) => entries?.some((entry) => entry.address === address));
}
