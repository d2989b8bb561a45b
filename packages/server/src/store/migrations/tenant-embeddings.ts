import type { Migration } from '../migrate.js';
import { vectorKeyIndexStatement } from '../vector-tables.js';

/** Tenant database migrations for embedding vectors, usage metering and backfill state (versions 10-19). */
export const embeddingMigrations: readonly Migration[] = [
  {
    version: 10,
    name: 'embeddings',
    statements: [
      // One vector table per model (`memory_vectors_<model>_<dim>`, F32_BLOB + libsql_vector_idx), created on
      // first use; this registry says which exist, so nothing has to parse table names.
      `CREATE TABLE embedding_vector_tables (
        model_id TEXT PRIMARY KEY,
        table_name TEXT NOT NULL UNIQUE,
        index_name TEXT NOT NULL UNIQUE,
        dimensions INTEGER NOT NULL,
        created_at TEXT NOT NULL
      )`,
      // The model memories of a project ('' = no project) are embedded with, as selected at their last write, so
      // retrieval embeds the query in the same space without reading the control database.
      `CREATE TABLE embedding_scope_models (
        project_key TEXT PRIMARY KEY,
        model_id TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      // Usage metering: one row per month, tenant, project, model and provider ('' for no tenant/project).
      `CREATE TABLE embedding_usage (
        usage_month TEXT NOT NULL,
        tenant_key TEXT NOT NULL,
        project_key TEXT NOT NULL,
        model_id TEXT NOT NULL,
        provider TEXT NOT NULL,
        request_count INTEGER NOT NULL DEFAULT 0,
        item_count INTEGER NOT NULL DEFAULT 0,
        token_count INTEGER NOT NULL DEFAULT 0,
        estimated_cost_usd REAL NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (usage_month, tenant_key, project_key, model_id, provider)
      )`,
      // Embedding jobs (one per memory embedded on write or by backfill): the worker figures of observability.
      `CREATE TABLE embedding_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL,
        model_id TEXT NOT NULL,
        origin TEXT NOT NULL,
        status TEXT NOT NULL,
        error_code TEXT,
        error_message TEXT,
        user_id TEXT,
        project_id TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX embedding_jobs_time ON embedding_jobs(created_at)',
      'CREATE INDEX embedding_jobs_memory ON embedding_jobs(memory_id, model_id, id)',
      // Backfill per scope (user|project) and model: pause flag, cursor and running totals.
      `CREATE TABLE embedding_backfill (
        scope_key TEXT NOT NULL,
        model_id TEXT NOT NULL,
        paused INTEGER NOT NULL DEFAULT 0,
        cursor_seq INTEGER NOT NULL DEFAULT 0,
        processed INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        last_run_at TEXT,
        last_error TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (scope_key, model_id)
      )`,
      // One row per retrieve() call: semantic use, fallbacks and latency for observability.
      `CREATE TABLE embedding_retrieval_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at TEXT NOT NULL,
        user_id TEXT,
        project_id TEXT,
        model_id TEXT,
        semantic_requested INTEGER NOT NULL,
        semantic_applied INTEGER NOT NULL,
        fallback_reason TEXT,
        latency_ms REAL NOT NULL
      )`,
      'CREATE INDEX embedding_retrieval_events_time ON embedding_retrieval_events(created_at)',
    ],
  },
  {
    version: 11,
    name: 'vector_key_indexes',
    statements: [],
    // Each vector table created before gets its key index (`vectorKeyIndexName`): coverage counts and the backfill's
    // "has no vector" test read it instead of the vectors.
    backfill: async (database) => {
      const tables = await database.all<{ table_name: string }>('SELECT table_name FROM embedding_vector_tables');
      return tables.map((table) => ({ sql: vectorKeyIndexStatement(table.table_name), args: [] }));
    },
  },
  {
    version: 12,
    name: 'failed_embedding_jobs',
    // The failed jobs of a model, which coverage counts from (`store/embedding-coverage.ts`): a batch of the backfill
    // then reads only memories that failed, not every memory still to embed.
    statements: [
      "CREATE INDEX IF NOT EXISTS embedding_jobs_failed ON embedding_jobs(model_id, memory_id) WHERE status = 'failed'",
    ],
  },
];
