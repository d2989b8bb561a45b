import type { Migration } from '../migrate.js';

/** Tenant database migrations for embedding vectors, usage metering and backfill state (versions 10-19). */
export const embeddingMigrations: readonly Migration[] = [];
