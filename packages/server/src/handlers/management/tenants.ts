import type { OperationInput } from '@memory-service/contract';
import { ApiError } from '../../api-error.js';
import { parseJson } from '../../store/rows.js';
import { checkAttachedDatabase, probeDatabase, validateAttachUrl } from '../../tenancy/attach.js';
import { AttachPolicy } from '../../tenancy/attach-policy.js';
import { mappingLocation } from '../../tenancy/database-location.js';
import { describeError, tenantCacheKey } from '../../tenancy/resolver.js';
import type { TenantRow } from '../../tenancy/tenant-registry.js';
import type { Handler, HandlerContext } from '../types.js';
import { toTenantMapping } from './tenant-mapping.js';

type UpsertInput = OperationInput<'management.tenants.post'>;
/** The columns that say where a mapping's database is. */
type DatabaseColumns = Pick<TenantRow, 'db_url' | 'db_name' | 'db_token_encrypted'>;

/** `GET management/tenant-overrides`: the caller owner's mappings (optionally one tenantId); tokens never leave. */
export const listTenants: Handler<'management.tenants.get'> = async (input, context) => {
  const rows = await context.services.registry.list(context.caller.ownerId);
  const selected = input.tenantId === undefined ? rows : rows.filter((row) => row.tenant_id === input.tenantId);
  const { dataDir } = context.services.config;
  return { tenants: selected.map((row) => toTenantMapping(row, dataDir)), count: selected.length };
};

/**
 * `POST management/tenant-overrides`: creates or replaces the caller owner's mapping of a tenantId. The database
 * must answer `SELECT 1` before anything is saved; the cached handle of a replaced mapping is dropped.
 */
export const upsertTenant: Handler<'management.tenants.post'> = async (input, context) => {
  const { registry, resolver, logger } = context.services;
  const ownerId = context.caller.ownerId;
  const existing = await registry.find(ownerId, input.tenantId);
  // A new mapping counts toward the workspace's tenant quota like an auto-provisioned one.
  if (existing === undefined) await resolver.assertTenantQuota(ownerId);
  const columns =
    input.mode === 'attach'
      ? await attachColumns(input, existing, context)
      : await provisionColumns(input, existing, context);
  const timestamp = context.now.toISOString();
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
  await resolver.forget(tenantCacheKey(ownerId, input.tenantId));
  logger.info('tenant mapping saved', { tenantId: input.tenantId, mode: input.mode, created: existing === undefined });
  const credentialsNote =
    input.mode === 'attach' && row.db_token_encrypted === null
      ? ' without credentials: requests answer TENANT_DATABASE_CREDENTIALS_MISSING until attachDbToken is given'
      : '';
  return {
    tenant: toTenantMapping(row, context.services.config.dataDir),
    created: existing === undefined,
    message: `Tenant mapping ${existing === undefined ? 'created' : 'updated'}${credentialsNote}`,
  };
};

/** `DELETE management/tenant-overrides`: disables the caller owner's mapping; its tenant then answers NOT_CONFIGURED. */
export const disableTenant: Handler<'management.tenants.delete'> = async (input, context) => {
  const { registry, resolver, logger } = context.services;
  const existing = await registry.find(context.caller.ownerId, input.tenantId);
  if (existing === undefined) {
    throw new ApiError('TENANT_NOT_FOUND', `No mapping for tenant '${input.tenantId}' belongs to this owner`);
  }
  const row: TenantRow = { ...existing, status: 'disabled', updated_at: context.now.toISOString() };
  await registry.save(row);
  await resolver.forget(tenantCacheKey(context.caller.ownerId, input.tenantId));
  logger.info('tenant mapping disabled', { tenantId: input.tenantId });
  return { tenant: toTenantMapping(row, context.services.config.dataDir), message: 'Tenant mapping disabled' };
};

/**
 * `provision`: keeps the database of an existing provisioned mapping (its data stays where it is), else asks the
 * configured provisioner (a file, or a namespace on a libSQL server) for a new one; either must answer `SELECT 1`.
 */
async function provisionColumns(
  input: UpsertInput,
  existing: TenantRow | undefined,
  context: HandlerContext,
): Promise<DatabaseColumns> {
  let location: { url: string; dbName: string | null };
  if (existing?.mode === 'provision' && existing.db_url !== null) {
    location = { url: existing.db_url, dbName: existing.db_name };
  } else {
    try {
      location = await context.services.resolver.provisioner.provision(context.caller.ownerId, input.tenantId);
    } catch (error) {
      context.services.logger.error('tenant provisioning failed', {
        tenantId: input.tenantId,
        error: describeError(error),
      });
      throw new ApiError(
        'TENANT_DATABASE_UNREACHABLE',
        'The tenant database could not be created on the libSQL server',
      );
    }
  }
  const row = { mode: 'provision' as const, db_url: location.url, db_name: location.dbName };
  const failure = await probeDatabase(() => mappingLocation(row, undefined));
  if (failure !== null) {
    context.services.logger.error('tenant database check failed', { tenantId: input.tenantId, code: failure });
    throw new ApiError('TENANT_DATABASE_UNREACHABLE', 'The tenant database did not answer SELECT 1');
  }
  return { db_url: location.url, db_name: location.dbName, db_token_encrypted: null };
}

/**
 * `attach`: a libSQL server by URL, where the attach policy allows (DESIGN 10). A new token replaces the stored one;
 * without one, the stored token of the same URL is kept. The token is checked with `SELECT 1` through the bounded
 * attach fetch, then sealed with AES-256-GCM (MEMORY_SECRET_KEY).
 */
async function attachColumns(
  input: UpsertInput,
  existing: TenantRow | undefined,
  context: HandlerContext,
): Promise<DatabaseColumns> {
  const { secrets, config, logger } = context.services;
  const url = input.attachDbUrl ?? '';
  const policy = new AttachPolicy(config);
  const target = await validateAttachUrl(url, policy);
  const sameDatabase = existing?.mode === 'attach' && existing.db_url === url;
  const token = input.attachDbToken ?? (sameDatabase ? storedToken(existing, context) : undefined);
  await checkAttachedDatabase(target, token, { config, policy, logger, tenantId: input.tenantId });
  return {
    db_url: url,
    db_name: input.attachDbName ?? (sameDatabase ? existing.db_name : null),
    db_token_encrypted: token === undefined ? null : secrets.encrypt(token),
  };
}

function storedToken(row: TenantRow, context: HandlerContext): string | undefined {
  if (row.db_token_encrypted === null) return undefined;
  try {
    return context.services.secrets.decrypt(row.db_token_encrypted);
  } catch {
    // Sealed under another MEMORY_SECRET_KEY: as good as no token.
    return undefined;
  }
}
