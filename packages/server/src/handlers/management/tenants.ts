import { disableTenantMapping, saveTenantMapping } from '../../tenancy/tenant-mappings.js';
import type { Handler } from '../types.js';
import { toTenantMapping } from './tenant-mapping.js';

/** `GET management/tenant-overrides`: the caller owner's mappings (optionally one tenantId); tokens never leave. */
export const listTenants: Handler<'management.tenants.get'> = async (input, context) => {
  const rows = await context.services.registry.list(context.caller.ownerId);
  const selected = input.tenantId === undefined ? rows : rows.filter((row) => row.tenant_id === input.tenantId);
  const { dataDir } = context.services.config;
  return { tenants: selected.map((row) => toTenantMapping(row, dataDir)), count: selected.length };
};

/** `POST management/tenant-overrides`: creates or replaces the caller owner's mapping of a tenantId. */
export const upsertTenant: Handler<'management.tenants.post'> = async (input, context) => {
  const { row, created } = await saveTenantMapping(context.services, context.caller.ownerId, input, context.now);
  const credentialsNote =
    input.mode === 'attach' && row.db_token_encrypted === null
      ? ' without credentials: requests answer TENANT_DATABASE_CREDENTIALS_MISSING until attachDbToken is given'
      : '';
  return {
    tenant: toTenantMapping(row, context.services.config.dataDir),
    created,
    message: `Tenant mapping ${created ? 'created' : 'updated'}${credentialsNote}`,
  };
};

/** `DELETE management/tenant-overrides`: disables the caller owner's mapping; its tenant then answers NOT_CONFIGURED. */
export const disableTenant: Handler<'management.tenants.delete'> = async (input, context) => {
  const row = await disableTenantMapping(context.services, context.caller.ownerId, input.tenantId, context.now);
  return { tenant: toTenantMapping(row, context.services.config.dataDir), message: 'Tenant mapping disabled' };
};
