import { ApiError } from '../api-error.js';
import type { DatabaseLocation } from '../store/database.js';
import type { TenantRow } from '../store/tenant-registry.js';
import { attachFetch } from './attach-fetch.js';
import { AttachPolicy, type AttachPolicyConfig } from './attach-policy.js';
import { type AttachTarget, parseAttachUrl } from './attach-url.js';
import { namespaceFetch } from './host-routed-fetch.js';

/** The default cap on one response of an attached database (MEMORY_ATTACH_MAX_RESPONSE_BYTES). */
export const DEFAULT_ATTACH_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** What opening an attached database reads from the configuration. */
export type AttachLocationConfig = AttachPolicyConfig & { attachMaxResponseBytes: number };

/**
 * Without the configuration only the addresses no configuration allows are refused (metadata, unspecified);
 * callers that have it pass it so private networks and the server's own libSQL servers are refused as well.
 */
const UNCONFIGURED: AttachLocationConfig = {
  attachAllowedHosts: [],
  attachAllowPrivateNetworks: true,
  sqldUrl: undefined,
  sqldAdminUrl: undefined,
  controlDbUrl: 'file:',
  defaultDbUrl: 'file:',
  attachMaxResponseBytes: DEFAULT_ATTACH_MAX_RESPONSE_BYTES,
};

/**
 * Whether a mapping is a namespace of a libSQL server: a provisioned mapping whose URL is a server (not a
 * `file:`) was created by the `sqld` provisioner, which stores the server's URL and the namespace as `db_name`.
 */
export function isNamespaceMapping(row: Pick<TenantRow, 'mode' | 'db_url' | 'db_name'>): boolean {
  return row.mode === 'provision' && row.db_url !== null && !row.db_url.startsWith('file:') && row.db_name !== null;
}

/**
 * How to open an attached database: the checked target's HTTP(S) URL with a fetch that connects only where the
 * policy allows and caps every response (`signal` bounds the attach check).
 */
export function attachLocation(
  target: AttachTarget,
  authToken: string | undefined,
  policy: AttachPolicy,
  options: { maxResponseBytes: number; signal?: AbortSignal },
): DatabaseLocation {
  return { url: target.url, authToken, fetch: attachFetch(target, policy, options) };
}

/**
 * How to open a mapping's database: its URL and token, plus the Host-routing fetch for a namespace, or the bounded
 * attach fetch for an attached server (give `config` to apply the whole attach policy).
 */
export function mappingLocation(
  row: Pick<TenantRow, 'mode' | 'db_url' | 'db_name'> & { db_url: string },
  authToken: string | undefined,
  config: AttachLocationConfig = UNCONFIGURED,
): DatabaseLocation {
  if (row.mode === 'attach' && !row.db_url.startsWith('file:')) {
    let target: AttachTarget;
    try {
      target = parseAttachUrl(row.db_url);
    } catch {
      // Saved before attach URLs were parsed as strictly: not opened.
      throw new ApiError('TENANT_DATABASE_UNREACHABLE', 'The database could not be reached with these credentials');
    }
    const policy = new AttachPolicy(config);
    return attachLocation(target, authToken, policy, { maxResponseBytes: config.attachMaxResponseBytes });
  }
  const location: DatabaseLocation = { url: row.db_url, authToken };
  if (isNamespaceMapping(row) && row.db_name !== null) location.fetch = namespaceFetch(row.db_name);
  return location;
}
