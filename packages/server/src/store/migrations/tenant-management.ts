import type { Migration } from '../migrate.js';

/** Tenant database migrations for management state of a tenant database (versions 30-39). */
export const managementMigrations: readonly Migration[] = [];
