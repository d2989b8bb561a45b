import { resolveTenantAttachAliases } from '@memory-service/contract';
import type { Handler } from '../../pipeline/handler-types.js';
import { disableTenantMapping, saveTenantMapping } from '../../tenancy/tenant-mappings.js';
import { toTenantMapping } from './tenant-mapping.js';

/**
 * `GET management/tenant-overrides`: the caller owner's mappings (optionally one tenantId); tokens never leave. The
 * list is sent twice: `tenants`, and `tenantDatabases` as memories.sh names it.
 */
export const listTenants: Handler<'management.tenants.get'> = async (input, context) => {
  const rows = await context.services.registry.list(context.caller.ownerId);
  const selected = input.tenantId === undefined ? rows : rows.filter((row) => row.tenant_id === input.tenantId);
  const { dataDir } = context.services.config;
  const tenants = selected.map((row) => toTenantMapping(row, dataDir));
  return { tenants, tenantDatabases: tenants, count: selected.length };
};

/**
 * `POST management/tenant-overrides`: creates or replaces the caller owner's mapping of a tenantId. Takes the attach
 * fields under memories.sh's names too (`tursoDbUrl`, ...), and answers its fields beside ours.
 */
export const upsertTenant: Handler<'management.tenants.post'> = async (input, context) => {
  const resolved = resolveTenantAttachAliases(input);
  const { row, created } = await saveTenantMapping(context.services, context.caller.ownerId, resolved, context.now);
  const credentialsNote =
    resolved.mode === 'attach' && row.db_token_encrypted === null
      ? ' without credentials: requests answer TENANT_DATABASE_CREDENTIALS_MISSING until attachDbToken is given'
      : '';
  const tenant = toTenantMapping(row, context.services.config.dataDir);
  return {
    tenant,
    created,
    message: `Tenant mapping ${created ? 'created' : 'updated'}${credentialsNote}`,
    tenantDatabase: tenant,
    provisioned: created && row.mode === 'provision',
    mode: row.mode,
  };
};

/** `DELETE management/tenant-overrides`: disables the caller owner's mapping; its tenant then answers NOT_CONFIGURED. */
export const disableTenant: Handler<'management.tenants.delete'> = async (input, context) => {
  const row = await disableTenantMapping(context.services, context.caller.ownerId, input.tenantId, context.now);
  const tenant = toTenantMapping(row, context.services.config.dataDir);
  return {
    tenant,
    message: 'Tenant mapping disabled',
    ok: true,
    tenantId: tenant.tenantId,
    status: tenant.status,
    updatedAt: tenant.updatedAt,
  };
};
