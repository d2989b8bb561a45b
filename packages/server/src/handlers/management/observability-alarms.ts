import type { AlarmSchema, Health } from '@memory-service/contract';
import type * as z from 'zod';

/** An alarm of an observability report. */
export type Alarm = z.infer<typeof AlarmSchema>;

/**
 * Alarm thresholds of the memory observability report. A rate alarm needs a minimum sample, so one odd session
 * or run does not page anyone; each has a warning and a critical level.
 */
export const MEMORY_ALARM_THRESHOLDS = {
  /** Share of ended sessions with at least one checkpoint: below it, sessions end without anything captured. */
  checkpointCoverage: { warning: 0.5, critical: 0.2, minSessions: 3 },
  /** Conflicted / input memories of applied consolidation runs: above it, memories keep contradicting each other. */
  conflictRate: { warning: 0.2, critical: 0.4, minInput: 5 },
  /** Deleted (deleted or expired) / created memories in the window: above it, memory is churning. */
  deletionRate: { warning: 0.8, critical: 1.5, minCreated: 10 },
} as const;

/** The figures the alarms look at. */
export interface AlarmInputs {
  endedSessions: number;
  checkpointCoverage: number;
  consolidationInput: number;
  conflictRate: number;
  created: number;
  deleted: number;
}

/** Rounds a ratio to 4 decimals (reports and thresholds compare the same rounded numbers). */
export function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : Math.round((numerator / denominator) * 10_000) / 10_000;
}

function below(code: string, label: string, value: number, levels: { warning: number; critical: number }): Alarm[] {
  if (value >= levels.warning) return [];
  const critical = value < levels.critical;
  const threshold = critical ? levels.critical : levels.warning;
  return [
    {
      code,
      severity: critical ? 'critical' : 'warning',
      message: `${label} ${value} is below ${threshold}`,
      value,
      threshold,
    },
  ];
}

function above(code: string, label: string, value: number, levels: { warning: number; critical: number }): Alarm[] {
  if (value <= levels.warning) return [];
  const critical = value > levels.critical;
  const threshold = critical ? levels.critical : levels.warning;
  return [
    {
      code,
      severity: critical ? 'critical' : 'warning',
      message: `${label} ${value} is above ${threshold}`,
      value,
      threshold,
    },
  ];
}

/** The alarms the figures raise, by the thresholds above. */
export function memoryAlarms(inputs: AlarmInputs): Alarm[] {
  const limits = MEMORY_ALARM_THRESHOLDS;
  const alarms: Alarm[] = [];
  if (inputs.endedSessions >= limits.checkpointCoverage.minSessions) {
    alarms.push(
      ...below('CHECKPOINT_COVERAGE_LOW', 'checkpoint coverage', inputs.checkpointCoverage, limits.checkpointCoverage),
    );
  }
  if (inputs.consolidationInput >= limits.conflictRate.minInput) {
    alarms.push(
      ...above(
        'CONSOLIDATION_CONFLICT_RATE_HIGH',
        'consolidation conflict rate',
        inputs.conflictRate,
        limits.conflictRate,
      ),
    );
  }
  if (inputs.created >= limits.deletionRate.minCreated) {
    const deletionRate = ratio(inputs.deleted, inputs.created);
    alarms.push(...above('MEMORY_DELETION_RATE_HIGH', 'memory deletion rate', deletionRate, limits.deletionRate));
  }
  return alarms;
}

/** `critical` with any critical alarm, `degraded` with any warning, else `healthy`. */
export function healthOf(alarms: readonly Alarm[]): Health {
  if (alarms.some((alarm) => alarm.severity === 'critical')) return 'critical';
  return alarms.length > 0 ? 'degraded' : 'healthy';
}
