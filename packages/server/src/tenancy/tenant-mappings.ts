import type { OperationInput } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { ServerConfig } from '../config.js';
import { describeError } from '../describe-error.js';
import type { Logger } from '../logger.js';
import { parseJson } from '../store/rows.js';
import { tenantKey } from '../store/tenant-key.js';
import type { TenantRegistry, TenantRow } from '../store/tenant-registry.js';
import { checkAttachedDatabase, probeDatabase, validateAttachUrl } from './attach.js';
import { AttachPolicy } from './attach-policy.js';
import { resolveDatabaseUrl } from './data-dir-urls.js';
import { mappingLocation } from './database-location.js';
import type { TenantResolver } from './resolver.js';
import type { SecretBox } from './secrets.js';

type UpsertInput = OperationInput<'management.tenants.post'>;
/** The columns that say where a mapping's database is. */
type DatabaseColumns = Pick<TenantRow, 'db_url' | 'db_name' | 'db_token_encrypted'>;
/** What managing mappings needs: the mappings, the resolver caching them, the secret box sealing their tokens. */
export interface MappingServices {
  registry: TenantRegistry;
  resolver: TenantResolver;
  logger: Logger;
  secrets: SecretBox;
  config: ServerConfig;
}

/**
 * Creates or replaces an owner's mapping of a tenantId. A new one counts toward the workspace's tenant quota; its
 * database must answer `SELECT 1` before anything is saved; the cached handle of a replaced mapping is dropped.
 */
export async function saveTenantMapping(
  services: MappingServices,
  ownerId: string,
  input: UpsertInput,
  now: Date,
): Promise<{ row: TenantRow; created: boolean }> {
  const { registry, resolver, logger } = services;
  const existing = await registry.find(ownerId, input.tenantId);
  if (existing === undefined) await resolver.assertTenantQuota(ownerId);
  const columns =
    input.mode === 'attach'
      ? await attachColumns(services, input, existing)
      : await provisionColumns(services, ownerId, input, existing);
  const timestamp = now.toISOString();
  const row: TenantRow = {
    owner_id: ownerId,
    tenant_id: input.tenantId,
    mode: input.mode,
    status: 'ready',
    source: 'override',
    ...columns,
    metadata: JSON.stringify(input.metadata ?? parseJson<Record<string, unknown>>(existing?.metadata, {})),
    last_error: null,
    created_at: existing?.created_at ?? timestamp,
    updated_at: timestamp,
  };
  await registry.save(row);
  await resolver.forget(tenantKey(ownerId, input.tenantId));
  logger.info('tenant mapping saved', { tenantId: input.tenantId, mode: input.mode, created: existing === undefined });
  return { row, created: existing === undefined };
}

/** Disables an owner's mapping (its tenant then answers NOT_CONFIGURED); TENANT_NOT_FOUND when there is none. */
export async function disableTenantMapping(
  services: MappingServices,
  ownerId: string,
  tenantId: string,
  now: Date,
): Promise<TenantRow> {
  const { registry, resolver, logger } = services;
  const existing = await registry.find(ownerId, tenantId);
  if (existing === undefined) {
    throw new ApiError('TENANT_NOT_FOUND', `No mapping for tenant '${tenantId}' belongs to this owner`);
  }
  const row: TenantRow = { ...existing, status: 'disabled', updated_at: now.toISOString() };
  await registry.save(row);
  await resolver.forget(tenantKey(ownerId, tenantId));
  logger.info('tenant mapping disabled', { tenantId });
  return row;
}

/**
 * `provision`: keeps the database of an existing provisioned mapping (its data stays where it is), else asks the
 * configured provisioner (a file, or a namespace on a libSQL server) for a new one; either must answer `SELECT 1`.
 */
async function provisionColumns(
  services: MappingServices,
  ownerId: string,
  input: UpsertInput,
  existing: TenantRow | undefined,
): Promise<DatabaseColumns> {
  let location: { url: string; dbName: string | null };
  if (existing?.mode === 'provision' && existing.db_url !== null) {
    location = { url: existing.db_url, dbName: existing.db_name };
  } else {
    try {
      location = await services.resolver.provisioner.provision(ownerId, input.tenantId);
    } catch (error) {
      services.logger.error('tenant provisioning failed', { tenantId: input.tenantId, error: describeError(error) });
      throw new ApiError(
        'TENANT_DATABASE_UNREACHABLE',
        'The tenant database could not be created on the libSQL server',
      );
    }
  }
  const row = { mode: 'provision' as const, db_url: location.url, db_name: location.dbName };
  const url = resolveDatabaseUrl(services.config.dataDir, location.url);
  const failure = await probeDatabase(() => mappingLocation({ ...row, db_url: url }, undefined));
  if (failure !== null) {
    services.logger.error('tenant database check failed', { tenantId: input.tenantId, code: failure });
    throw new ApiError('TENANT_DATABASE_UNREACHABLE', 'The tenant database did not answer SELECT 1');
  }
  return { db_url: location.url, db_name: location.dbName, db_token_encrypted: null };
}

/**
 * `attach`: a libSQL server by URL, where the attach policy allows. A new token replaces the stored one; without
 * one, the stored token of the same URL is kept. The token is checked with `SELECT 1` through the bounded attach
 * fetch, then sealed with AES-256-GCM (MEMORY_SECRET_KEY).
 */
async function attachColumns(
  services: MappingServices,
  input: UpsertInput,
  existing: TenantRow | undefined,
): Promise<DatabaseColumns> {
  const { secrets, config, logger } = services;
  const url = input.attachDbUrl ?? '';
  const policy = new AttachPolicy(config);
  const target = await validateAttachUrl(url, policy);
  const sameDatabase = existing?.mode === 'attach' && existing.db_url === url;
  const token = input.attachDbToken ?? (sameDatabase ? storedToken(services, existing) : undefined);
  await checkAttachedDatabase(target, token, { config, policy, logger, tenantId: input.tenantId });
  return {
    db_url: url,
    db_name: input.attachDbName ?? (sameDatabase ? existing.db_name : null),
    db_token_encrypted: token === undefined ? null : secrets.encrypt(token),
  };
}

function storedToken(services: MappingServices, row: TenantRow): string | undefined {
  if (row.db_token_encrypted === null) return undefined;
  try {
    return services.secrets.decrypt(row.db_token_encrypted);
  } catch {
    // Sealed under another MEMORY_SECRET_KEY: as good as no token.
    return undefined;
  }
}
