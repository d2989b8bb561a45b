import { historyBuckets, historyPoints } from '../../observability/history-buckets.js';
import type { Handler } from '../../pipeline/handler-types.js';
import { type EndedSessionGroup, LifecycleReport } from '../../store/lifecycle-report.js';
import { healthOf, memoryAlarms, ratio } from './observability-alarms.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LIFECYCLE_KINDS = [
  'memory.created',
  'memory.updated',
  'memory.deleted',
  'memory.expired',
  'memory.merged',
  'session.started',
  'session.checkpoint',
] as const;
/** Events that take a memory out of service: forgotten, expired, or merged into a duplicate by consolidation. */
const DELETING_KINDS = ['memory.deleted', 'memory.expired', 'memory.merged'] as const;
/** Keys the trigger mix always has: the recorded triggers, then ended sessions with none, by end status. */
const TRIGGER_MIX_KEYS = ['count', 'time', 'semantic', 'closed', 'compacted'] as const;

/** Every UTC date (YYYY-MM-DD) from the window's first day to its last, in order. */
export function windowDays(since: Date, until: Date): string[] {
  const days: string[] = [];
  const first = Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate());
  for (let day = first; day <= until.getTime(); day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

/** Sessions by recorded trigger (count, time, semantic) or, with none recorded, by end status. */
export function triggerMix(groups: readonly EndedSessionGroup[]): Record<string, number> {
  const mix: Record<string, number> = Object.fromEntries(TRIGGER_MIX_KEYS.map((key) => [key, 0]));
  for (const group of groups) {
    const key = group.trigger ?? group.status;
    mix[key] = (mix[key] ?? 0) + group.sessions;
  }
  return mix;
}

/**
 * `GET management/memory/observability`: figures of the last `windowHours` computed from the tenant database's
 * recorded lifecycle events, memories and sessions (see the server README for each figure's definition).
 */
export const memoryObservability: Handler<'management.memory.observability'> = async (input, context) => {
  const until = context.now;
  const since = new Date(until.getTime() - input.windowHours * HOUR_MS);
  const { database } = await context.tenant();
  const report = new LifecycleReport(database, context.scope, {
    since: since.toISOString(),
    until: until.toISOString(),
  });
  const buckets = historyBuckets(until, input.windowHours);
  const [events, totals, ended, consolidation, contradictionsByDay, eventHistory] = await Promise.all([
    report.eventCounts(LIFECYCLE_KINDS),
    report.memoryTotals(until),
    report.endedSessions(),
    report.consolidation(),
    report.contradictionsByDay(),
    report.eventHistory(['memory.created', 'memory.updated', ...DELETING_KINDS], buckets),
  ]);
  const eventCount = (kind: (typeof LIFECYCLE_KINDS)[number]) => events.get(kind) ?? 0;
  const history = historyPoints(buckets, (index) => {
    const kinds = eventHistory.get(index);
    const of = (kind: string) => kinds?.get(kind) ?? 0;
    return {
      created: of('memory.created'),
      updated: of('memory.updated'),
      deleted: DELETING_KINDS.reduce((sum, kind) => sum + of(kind), 0),
    };
  });
  const endedCount = ended.reduce((sum, group) => sum + group.sessions, 0);
  const checkpointed = ended.reduce((sum, group) => sum + group.checkpointed, 0);
  const endedWith = (status: string) =>
    ended.filter((group) => group.status === status).reduce((sum, group) => sum + group.sessions, 0);
  const created = eventCount('memory.created');
  const deleted = DELETING_KINDS.reduce((sum, kind) => sum + eventCount(kind), 0);
  const checkpointCoverage = ratio(checkpointed, endedCount);
  const { applied } = consolidation;
  const conflictRate = ratio(applied.conflictedCount, applied.inputCount);
  const dailyTrend = windowDays(since, until).map((date) => ({ date, count: contradictionsByDay.get(date) ?? 0 }));
  const alarms = memoryAlarms({
    endedSessions: endedCount,
    checkpointCoverage,
    consolidationInput: applied.inputCount,
    conflictRate,
    created,
    deleted,
  });
  return {
    scope: context.scope,
    windowHours: input.windowHours,
    lifecycle: { created, updated: eventCount('memory.updated'), deleted, active: totals.active, total: totals.total },
    history: { bucketMinutes: buckets.bucketMinutes, points: history },
    compaction: {
      sessionsStarted: eventCount('session.started'),
      sessionsClosed: endedWith('closed'),
      sessionsCompacted: endedWith('compacted'),
      triggerMix: triggerMix(ended),
      checkpoints: eventCount('session.checkpoint'),
      checkpointCoverage,
    },
    consolidation: { ...applied, dryRuns: consolidation.dryRuns, conflictRate },
    contradictions: {
      windowTotal: dailyTrend.reduce((sum, day) => sum + day.count, 0),
      dailyTrend,
    },
    alarms,
    health: healthOf(alarms),
  };
};
