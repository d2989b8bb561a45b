import type { Migration } from '../migrate.js';

/** Tenant database migrations for graph nodes and edges, rollout, retrieval policy, metrics and consolidation runs (versions 20-29). */
export const graphMigrations: readonly Migration[] = [
  {
    version: 20,
    name: 'graph',
    statements: [
      // Node ids are deterministic (`<type>:<normalised key>`), so extraction can upsert without reading first.
      `CREATE TABLE graph_nodes (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        label TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX graph_nodes_type ON graph_nodes(type)',
      // Memory-to-node links (topic, category, repo, user, entity), rewritten whenever the memory is re-extracted.
      `CREATE TABLE graph_memory_links (
        memory_id TEXT NOT NULL,
        node_id TEXT NOT NULL,
        edge_type TEXT NOT NULL,
        confidence REAL NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (memory_id, node_id)
      ) WITHOUT ROWID`,
      'CREATE INDEX graph_memory_links_node ON graph_memory_links(node_id, memory_id)',
      // Memory-to-memory edges; `origin` tells extraction edges (recomputed on edit) from consolidation history.
      `CREATE TABLE graph_edges (
        source_memory_id TEXT NOT NULL,
        target_memory_id TEXT NOT NULL,
        edge_type TEXT NOT NULL,
        confidence REAL NOT NULL,
        origin TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        PRIMARY KEY (source_memory_id, target_memory_id, edge_type)
      ) WITHOUT ROWID`,
      'CREATE INDEX graph_edges_target ON graph_edges(target_memory_id, edge_type)',
      `CREATE TABLE graph_errors (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        code TEXT NOT NULL,
        message TEXT NOT NULL,
        memory_id TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX graph_errors_created ON graph_errors(created_at)',
      // The consolidation subject of each memory (docs/architecture.md#write-side-behaviour), so a write finds same-subject memories by index.
      `CREATE TABLE memory_subjects (
        memory_id TEXT PRIMARY KEY,
        group_key TEXT NOT NULL,
        key_source TEXT NOT NULL
      ) WITHOUT ROWID`,
      'CREATE INDEX memory_subjects_group ON memory_subjects(group_key)',
    ],
  },
  {
    version: 21,
    name: 'rollout',
    statements: [
      // `project_key` is '' for the tenant-wide row, else a projectId; a project row overrides the tenant row.
      `CREATE TABLE graph_rollout (
        project_key TEXT PRIMARY KEY,
        mode TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT
      )`,
      `CREATE TABLE retrieval_policy (
        project_key TEXT PRIMARY KEY,
        default_strategy TEXT NOT NULL,
        ready_window_streak INTEGER NOT NULL DEFAULT 0,
        last_decision TEXT,
        last_evaluated_at TEXT,
        updated_at TEXT,
        updated_by TEXT
      )`,
      // One row per context call: the shadow metrics the quality gate aggregates.
      `CREATE TABLE retrieval_metrics (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at TEXT NOT NULL,
        project_id TEXT,
        user_id TEXT,
        rollout_mode TEXT NOT NULL,
        strategy_selected TEXT NOT NULL,
        strategy_applied TEXT NOT NULL,
        hybrid_executed INTEGER NOT NULL,
        semantic_fallback INTEGER NOT NULL,
        graph_executed INTEGER NOT NULL,
        graph_applied INTEGER NOT NULL,
        graph_candidates INTEGER NOT NULL,
        graph_expanded INTEGER NOT NULL,
        graph_error INTEGER NOT NULL,
        latency_ms REAL NOT NULL
      )`,
      'CREATE INDEX retrieval_metrics_time ON retrieval_metrics(created_at)',
      'CREATE INDEX retrieval_metrics_project ON retrieval_metrics(project_id, created_at)',
    ],
  },
  {
    version: 22,
    name: 'consolidation_runs',
    statements: [
      `CREATE TABLE consolidation_runs (
        id TEXT PRIMARY KEY,
        tenant_id TEXT,
        user_id TEXT,
        project_id TEXT,
        input_count INTEGER NOT NULL,
        merged_count INTEGER NOT NULL,
        superseded_count INTEGER NOT NULL,
        conflicted_count INTEGER NOT NULL,
        model TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX consolidation_runs_time ON consolidation_runs(created_at)',
      'CREATE INDEX memories_superseded ON memories(superseded_by) WHERE superseded_by IS NOT NULL',
    ],
  },
  {
    version: 23,
    name: 'graph_purge',
    statements: [
      // Purging a memory (vacuum) purges its graph too: links, edges, subject, its node, and shared nodes only it used.
      `CREATE TRIGGER memories_graph_purge AFTER DELETE ON memories BEGIN
        DELETE FROM graph_nodes WHERE id IN (SELECT node_id FROM graph_memory_links WHERE memory_id = old.id)
          AND NOT EXISTS (SELECT 1 FROM graph_memory_links l WHERE l.node_id = graph_nodes.id AND l.memory_id <> old.id);
        DELETE FROM graph_memory_links WHERE memory_id = old.id;
        DELETE FROM graph_edges WHERE source_memory_id = old.id;
        DELETE FROM graph_edges WHERE target_memory_id = old.id;
        DELETE FROM memory_subjects WHERE memory_id = old.id;
        DELETE FROM graph_nodes WHERE id = 'memory:' || old.id;
      END`,
    ],
  },
];
