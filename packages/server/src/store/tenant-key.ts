/**
 * The one name of a tenant database inside the server: its workspace (the key owner) and its tenantId, null for the
 * workspace's own database. The open-database cache, the mapping cache and the tenant lanes all key by it, so
 * "the same tenant" means the same thing to each. A NUL separates the parts: no id holds one, so no two tenants share
 * a key.
 */
export function tenantKey(ownerId: string, tenantId: string | null): string {
  return tenantId === null ? `workspace\u0000${ownerId}` : `tenant\u0000${ownerId}\u0000${tenantId}`;
}
