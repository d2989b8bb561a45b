import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import type { Database } from '../src/store/database.js';
import { memoryInsertStatement, type NewMemory, newMemoryId } from '../src/store/memory-rows.js';
import type { TenantDatabase } from '../src/tenancy/tenant-database.js';
import type { TestServer } from './harness.js';

/** The workspace database object the test key's calls use (no tenantId), with its caches. */
export async function workspaceTenant(server: TestServer): Promise<TenantDatabase> {
  return server.services.resolver.resolve(DEFAULT_OWNER_ID, null, new Date());
}

/** The workspace database the test key's calls use (no tenantId). */
export async function workspaceDatabase(server: TestServer): Promise<Database> {
  return (await workspaceTenant(server)).database;
}

/** Pins the server's clock (the pipeline reads `services.now` per call). */
export function pinClock(server: TestServer, at: Date): void {
  server.services.now = () => new Date(at.getTime());
}

/** One seeded metrics row: defaults describe a healthy hybrid call with the graph executed in canary. */
export interface SeedRow {
  at: Date;
  projectId?: string | null;
  rolloutMode?: 'off' | 'shadow' | 'canary';
  hybridExecuted?: boolean;
  semanticFallback?: boolean;
  graphExecuted?: boolean;
  graphCandidates?: number;
  graphError?: boolean;
}

/** Inserts metrics rows as context calls would have recorded them, in one transaction. */
export async function seedMetrics(database: Database, rows: readonly SeedRow[]): Promise<void> {
  await database.transaction(
    rows.map((row) => ({
      sql: `INSERT INTO retrieval_metrics (created_at, project_id, user_id, rollout_mode, strategy_selected, strategy_applied,
              hybrid_executed, semantic_fallback, graph_executed, graph_applied, graph_candidates, graph_expanded, graph_error, latency_ms)
            VALUES (?, ?, NULL, ?, 'hybrid', 'hybrid', ?, ?, ?, ?, ?, ?, ?, 5)`,
      args: [
        row.at.toISOString(),
        row.projectId ?? null,
        row.rolloutMode ?? 'canary',
        row.hybridExecuted === false ? 0 : 1,
        row.semanticFallback ? 1 : 0,
        row.graphExecuted === false ? 0 : 1,
        row.rolloutMode === 'canary' || row.rolloutMode === undefined ? 1 : 0,
        row.graphCandidates ?? 2,
        row.graphCandidates ?? 2,
        row.graphError ? 1 : 0,
      ],
    })),
  );
}

/** `count` rows spread over the hour before `end`, each built by `make`. */
export function rowsBefore(
  end: Date,
  count: number,
  make: (index: number) => Omit<SeedRow, 'at'> = () => ({}),
): SeedRow[] {
  return Array.from({ length: count }, (_, index) => ({
    ...make(index),
    at: new Date(end.getTime() - (index + 1) * 60_000),
  }));
}

/** Seeds a healthy window (40 canary-ready calls in the last hour) and switches the tenant to `mode`. */
export async function setRolloutMode(server: TestServer, database: Database, mode: 'off' | 'shadow' | 'canary') {
  if (mode === 'canary') await seedMetrics(database, rowsBefore(server.services.now(), 40));
  await server.post('/graph/rollout', { mode });
}

/** A long-term note with nothing but its content (no tags, metadata or expiry), written with `embeddingModel`. */
export function plainNote(content: string, embeddingModel: string | null = null): NewMemory {
  return {
    content,
    type: 'note',
    layer: 'long_term',
    tags: [],
    paths: [],
    category: null,
    metadata: {},
    embeddingModel,
    expiresAt: null,
  };
}

/**
 * Writes notes straight into a database, as an import would: no write hook runs, so they have no vector, no graph and
 * no recorded query model. `createdAt(index)` dates each one; they are shared (unscoped) unless `userId` is given.
 */
export async function importNotes(
  database: Database,
  contents: readonly string[],
  createdAt: (index: number) => Date = () => new Date(),
  userId: string | null = null,
): Promise<void> {
  const scope = { tenantId: null, userId, projectId: null };
  await database.transaction(
    contents.map((content, index) =>
      memoryInsertStatement(newMemoryId(), plainNote(content), scope, createdAt(index).toISOString()),
    ),
  );
}
