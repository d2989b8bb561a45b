import type { InValue } from '@libsql/client';
import type { ResolvedScope } from '@memory-service/contract';
import { bucketArgs, bucketIndexSql, type HistoryBuckets } from '../observability/history-buckets.js';
import type { Database } from './database.js';
import { allOf, type Condition } from './scope-filter.js';

/** The report's time window: ISO timestamps, both ends included. */
export interface ReportWindow {
  since: string;
  until: string;
}

/** Ended sessions of the window, grouped by end status and recorded trigger. */
export interface EndedSessionGroup {
  status: string;
  /** `metadata.trigger` of the session when it is count, time or semantic; else null. */
  trigger: string | null;
  sessions: number;
  /** How many of them have at least one checkpoint. */
  checkpointed: number;
}

/** Totals of consolidation runs (applied or dry) in the window. */
export interface ConsolidationTotals {
  runs: number;
  inputCount: number;
  mergedCount: number;
  supersededCount: number;
  conflictedCount: number;
}

const count = (value: unknown): number => Number(value ?? 0);

/**
 * An exact filter for reports: with a userId or projectId, only records written with it; without, every record of
 * the tenant database (a report counts the whole tenant, unlike retrieval's own-plus-shared visibility).
 */
export function reportFilter(scope: ResolvedScope, alias: string): Condition {
  const conditions: Condition[] = [{ sql: '1 = 1', args: [] }];
  if (scope.userId !== null) conditions.push({ sql: `${alias}.user_id = ?`, args: [scope.userId] });
  if (scope.projectId !== null) conditions.push({ sql: `${alias}.project_id = ?`, args: [scope.projectId] });
  return allOf(...conditions);
}

/** Read-only figures over lifecycle events, memories and sessions of one tenant database. */
export class LifecycleReport {
  constructor(
    private readonly database: Database,
    private readonly scope: ResolvedScope,
    private readonly window: ReportWindow,
  ) {}

  private eventWhere(kinds: readonly string[]): Condition {
    return allOf(
      { sql: `e.kind IN (${kinds.map(() => '?').join(', ')})`, args: [...kinds] },
      { sql: 'e.created_at >= ? AND e.created_at <= ?', args: [this.window.since, this.window.until] },
      reportFilter(this.scope, 'e'),
    );
  }

  /** How many events of each kind the window holds (kinds with none are absent). */
  async eventCounts(kinds: readonly string[]): Promise<Map<string, number>> {
    const where = this.eventWhere(kinds);
    const rows = await this.database.all<{ kind: string; count: number }>(
      `SELECT e.kind AS kind, count(*) AS count FROM lifecycle_events e WHERE ${where.sql} GROUP BY e.kind`,
      where.args,
    );
    return new Map(rows.map((row) => [row.kind, count(row.count)]));
  }

  /** Stored memories (soft-deleted ones until vacuum purges them) and live ones (not deleted, superseded or expired). */
  async memoryTotals(now: Date): Promise<{ active: number; total: number }> {
    const where = reportFilter(this.scope, 'm');
    const row = await this.database.get<{ active: number | null; total: number }>(
      `SELECT count(*) AS total,
         sum(CASE WHEN m.deleted_at IS NULL AND m.superseded_by IS NULL
                   AND (m.expires_at IS NULL OR m.expires_at > ?) THEN 1 ELSE 0 END) AS active
       FROM memories m WHERE ${where.sql}`,
      [now.toISOString(), ...where.args],
    );
    return { active: count(row?.active), total: count(row?.total) };
  }

  /** Sessions that ended in the window, by end status and the trigger their metadata records. */
  async endedSessions(): Promise<EndedSessionGroup[]> {
    const where = this.eventWhere(['session.ended']);
    const trigger = `json_extract(s.metadata, '$.trigger')`;
    const rows = await this.database.all<Record<string, InValue>>(
      `SELECT json_extract(e.detail, '$.status') AS status,
         CASE WHEN ${trigger} IN ('count', 'time', 'semantic') THEN ${trigger} END AS trigger,
         count(*) AS sessions,
         sum(EXISTS (SELECT 1 FROM session_events se WHERE se.session_id = e.subject_id)) AS checkpointed
       FROM lifecycle_events e LEFT JOIN sessions s ON s.id = e.subject_id
       WHERE ${where.sql} GROUP BY 1, 2`,
      where.args,
    );
    return rows.map((row) => ({
      status: String(row.status ?? 'closed'),
      trigger: row.trigger === null || row.trigger === undefined ? null : String(row.trigger),
      sessions: count(row.sessions),
      checkpointed: count(row.checkpointed),
    }));
  }

  /** Totals of the window's `consolidation.run` events, applied runs and dry runs apart. */
  async consolidation(): Promise<{ applied: ConsolidationTotals; dryRuns: number }> {
    const where = this.eventWhere(['consolidation.run']);
    const field = (name: string) => `sum(coalesce(json_extract(e.detail, '$.${name}'), 0))`;
    const rows = await this.database.all<Record<string, InValue>>(
      `SELECT coalesce(json_extract(e.detail, '$.dryRun'), 0) AS dry, count(*) AS runs, ${field('inputCount')} AS input, ${field('mergedCount')} AS merged,
         ${field('supersededCount')} AS superseded, ${field('conflictedCount')} AS conflicted
       FROM lifecycle_events e WHERE ${where.sql} GROUP BY 1`,
      where.args,
    );
    const applied = rows.find((row) => count(row.dry) === 0);
    const dryRuns = rows.filter((row) => count(row.dry) !== 0).reduce((sum, row) => sum + count(row.runs), 0);
    return {
      applied: {
        runs: count(applied?.runs),
        inputCount: count(applied?.input),
        mergedCount: count(applied?.merged),
        supersededCount: count(applied?.superseded),
        conflictedCount: count(applied?.conflicted),
      },
      dryRuns,
    };
  }

  /**
   * Contradictions consolidation resolved, per UTC day (days with none are absent): one per `memory.superseded`
   * event, i.e. a memory replaced by a newer, differing statement of the same subject (a `contradicts` edge).
   */
  async contradictionsByDay(): Promise<Map<string, number>> {
    const where = this.eventWhere(['memory.superseded']);
    const rows = await this.database.all<{ day: string; count: number }>(
      `SELECT substr(e.created_at, 1, 10) AS day, count(*) AS count FROM lifecycle_events e WHERE ${where.sql} GROUP BY 1`,
      where.args,
    );
    return new Map(rows.map((row) => [String(row.day), count(row.count)]));
  }

  /**
   * How many events of each kind each history bucket holds: a map from bucket index to counts by kind (buckets and
   * kinds with none are absent). The buckets cover the report's window.
   */
  async eventHistory(kinds: readonly string[], buckets: HistoryBuckets): Promise<Map<number, Map<string, number>>> {
    const where = this.eventWhere(kinds);
    const rows = await this.database.all<{ bucket: number; kind: string; count: number }>(
      `SELECT ${bucketIndexSql('e.created_at', buckets)} AS bucket, e.kind AS kind, count(*) AS count
       FROM lifecycle_events e WHERE ${where.sql} AND e.created_at >= ? GROUP BY 1, 2`,
      [...bucketArgs(buckets), ...where.args, new Date(buckets.start).toISOString()],
    );
    const history = new Map<number, Map<string, number>>();
    for (const row of rows) {
      const bucket = Math.min(count(row.bucket), buckets.count - 1);
      const kinds = history.get(bucket) ?? new Map<string, number>();
      kinds.set(row.kind, (kinds.get(row.kind) ?? 0) + count(row.count));
      history.set(bucket, kinds);
    }
    return history;
  }
}
