import type { ServerConfig } from '../config.js';
import { FileProvisioner, type TenantProvisioner } from './provisioner.js';
import type { SecretBox } from './secrets.js';
import { SqldProvisioner } from './sqld-provisioner.js';

/**
 * The provisioner MEMORY_TENANT_PROVISIONER names: `file` (a libSQL file per tenant in the data dir) or `sqld`
 * (a namespace per tenant on a libSQL server, which needs MEMORY_SQLD_ADMIN_URL and MEMORY_SQLD_URL).
 */
export function chooseProvisioner(config: ServerConfig, secrets: SecretBox): TenantProvisioner {
  if (config.tenantProvisioner !== 'sqld') return new FileProvisioner();
  if (!config.sqldAdminUrl || !config.sqldUrl) {
    throw new Error('MEMORY_TENANT_PROVISIONER=sqld needs MEMORY_SQLD_ADMIN_URL and MEMORY_SQLD_URL');
  }
  return new SqldProvisioner({
    adminUrl: config.sqldAdminUrl,
    url: config.sqldUrl,
    keyedDigest: (value) => secrets.digest(value),
  });
}
