import type { RetrievalPolicy, RolloutMode, Strategy } from '@memory-service/contract';
import type { Database } from './database.js';

/** The tenant-wide row's key; a project's row is keyed by its projectId and overrides the tenant row. */
export const TENANT_KEY = '';

/** A rollout mode as the contract reports it. */
export interface RolloutState {
  mode: RolloutMode;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** What context/get needs before retrieving: the effective rollout mode and the policy's default strategy. */
export interface RetrievalSettings {
  rolloutMode: RolloutMode;
  defaultStrategy: Strategy;
  /** Who last set the policy: null when nobody has (the autopilot may decide), `autopilot`, or an operator. */
  policyUpdatedBy: string | null;
}

/** The `updatedBy` of a policy the server's autopilot set; any other non-null value is an operator's choice. */
export const AUTOPILOT_ACTOR = 'autopilot';

/** Whether an operator set the policy (the autopilot then never changes it). */
export function setByOperator(updatedBy: string | null): boolean {
  return updatedBy !== null && updatedBy !== AUTOPILOT_ACTOR;
}

/** The default policy of a tenant that has never been evaluated: lexical (docs/architecture.md#retrieval). */
export const INITIAL_POLICY: RetrievalPolicy = {
  defaultStrategy: 'lexical',
  readyWindowStreak: 0,
  lastDecision: null,
  lastEvaluatedAt: null,
  updatedAt: null,
  updatedBy: null,
};

/** The effective rollout mode (project row, else tenant row, else off) and the tenant's default strategy, in one query. */
export async function loadRetrievalSettings(database: Database, projectId: string | null): Promise<RetrievalSettings> {
  const row = await database.get<{
    project_mode: string | null;
    tenant_mode: string | null;
    default_strategy: string | null;
    policy_updated_by: string | null;
  }>(
    `SELECT (SELECT mode FROM graph_rollout WHERE project_key = ?) AS project_mode,
            (SELECT mode FROM graph_rollout WHERE project_key = ?) AS tenant_mode,
            (SELECT default_strategy FROM retrieval_policy WHERE project_key = ?) AS default_strategy,
            (SELECT updated_by FROM retrieval_policy WHERE project_key = ?) AS policy_updated_by`,
    [projectId ?? TENANT_KEY, TENANT_KEY, TENANT_KEY, TENANT_KEY],
  );
  return {
    rolloutMode: (row?.project_mode ?? row?.tenant_mode ?? 'off') as RolloutMode,
    defaultStrategy: (row?.default_strategy ?? INITIAL_POLICY.defaultStrategy) as Strategy,
    policyUpdatedBy: row?.policy_updated_by ?? null,
  };
}

/** The rollout of a scope: its own row, else the tenant row (for a project), else off. */
export async function readRollout(database: Database, projectId: string | null): Promise<RolloutState> {
  const rows = await database.all<{ project_key: string; mode: string; updated_at: string; updated_by: string | null }>(
    'SELECT project_key, mode, updated_at, updated_by FROM graph_rollout WHERE project_key IN (?, ?)',
    [projectId ?? TENANT_KEY, TENANT_KEY],
  );
  const row =
    rows.find((entry) => entry.project_key === (projectId ?? TENANT_KEY)) ??
    rows.find((entry) => entry.project_key === TENANT_KEY);
  if (row === undefined) return { mode: 'off', updatedAt: null, updatedBy: null };
  return { mode: row.mode as RolloutMode, updatedAt: row.updated_at, updatedBy: row.updated_by };
}

/** Sets the rollout mode of a scope (a project row when projectId is given, else the tenant row). */
export async function writeRollout(
  database: Database,
  projectId: string | null,
  mode: RolloutMode,
  updatedBy: string,
  now: Date,
) {
  await database.run(
    `INSERT INTO graph_rollout (project_key, mode, updated_at, updated_by) VALUES (?, ?, ?, ?)
       ON CONFLICT(project_key) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [projectId ?? TENANT_KEY, mode, now.toISOString(), updatedBy],
  );
}

/** The tenant's retrieval policy. */
export async function readPolicy(database: Database): Promise<RetrievalPolicy> {
  const row = await database.get<{
    default_strategy: string;
    ready_window_streak: number;
    last_decision: string | null;
    last_evaluated_at: string | null;
    updated_at: string | null;
    updated_by: string | null;
  }>('SELECT * FROM retrieval_policy WHERE project_key = ?', [TENANT_KEY]);
  if (row === undefined) return INITIAL_POLICY;
  return {
    defaultStrategy: row.default_strategy as Strategy,
    readyWindowStreak: Number(row.ready_window_streak),
    lastDecision: row.last_decision,
    lastEvaluatedAt: row.last_evaluated_at,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}

/** Stores an evaluation of the rollout in the tenant's policy (streak, decision, time) without changing its strategy. */
export async function writeEvaluation(
  database: Database,
  evaluation: Pick<RetrievalPolicy, 'readyWindowStreak' | 'lastDecision' | 'lastEvaluatedAt'>,
): Promise<void> {
  await database.run(
    `INSERT INTO retrieval_policy (project_key, default_strategy, ready_window_streak, last_decision, last_evaluated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(project_key) DO UPDATE SET ready_window_streak = excluded.ready_window_streak,
         last_decision = excluded.last_decision, last_evaluated_at = excluded.last_evaluated_at`,
    [
      TENANT_KEY,
      INITIAL_POLICY.defaultStrategy,
      evaluation.readyWindowStreak,
      evaluation.lastDecision,
      evaluation.lastEvaluatedAt,
    ],
  );
}

/**
 * The autopilot's promotion: the default becomes hybrid, recorded as `decision` by the autopilot, unless someone has
 * set the policy meanwhile (an operator's choice is never overwritten: the update is conditional, in one statement).
 * Returns whether this call promoted it.
 */
export async function promoteToHybrid(database: Database, decision: string, now: Date): Promise<boolean> {
  const timestamp = now.toISOString();
  const changed = await database.run(
    `INSERT INTO retrieval_policy (project_key, default_strategy, ready_window_streak, last_decision, last_evaluated_at,
         updated_at, updated_by)
       VALUES (?, 'hybrid', 0, ?, ?, ?, ?)
       ON CONFLICT(project_key) DO UPDATE SET default_strategy = 'hybrid', last_decision = excluded.last_decision,
         last_evaluated_at = excluded.last_evaluated_at, updated_at = excluded.updated_at, updated_by = excluded.updated_by
       WHERE retrieval_policy.updated_by IS NULL AND retrieval_policy.default_strategy = 'lexical'`,
    [TENANT_KEY, decision, timestamp, timestamp, AUTOPILOT_ACTOR],
  );
  return changed > 0;
}

/**
 * An operator's choice of the default strategy, kept until an operator changes it (the autopilot leaves it alone);
 * null hands the choice back to the autopilot: lexical until it promotes the tenant again.
 */
export async function setPolicyStrategy(
  database: Database,
  strategy: Strategy | null,
  updatedBy: string,
  now: Date,
): Promise<void> {
  const timestamp = now.toISOString();
  await database.run(
    `INSERT INTO retrieval_policy (project_key, default_strategy, ready_window_streak, last_decision, last_evaluated_at,
         updated_at, updated_by)
       VALUES (?, ?, 0, ?, NULL, ?, ?)
       ON CONFLICT(project_key) DO UPDATE SET default_strategy = excluded.default_strategy,
         last_decision = excluded.last_decision, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [
      TENANT_KEY,
      strategy ?? INITIAL_POLICY.defaultStrategy,
      strategy === null ? 'operator_auto' : `operator_${strategy}`,
      timestamp,
      strategy === null ? null : updatedBy,
    ],
  );
}
