export { eraseUser } from './erase-user.js';
export { evalReplay } from './eval-replay.js';
export { createKey, getKeys, revokeKeys } from './keys.js';
export { memoryObservability } from './memory-observability.js';
export { disableTenant, listTenants, upsertTenant } from './tenants.js';
export { exportWorkspace, importIntoWorkspace } from './transfer.js';
