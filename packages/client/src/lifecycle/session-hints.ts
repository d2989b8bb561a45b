import type { LifecycleHints, SessionHints } from './lifecycle-hints.js';

const MILLISECONDS_PER_MINUTE = 60_000;

function timestampOf(value: LifecycleHints['lastActivityAt']): number | null {
  if (value === undefined) return null;
  const time = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

/**
 * Decides whether the session needs compaction (docs/architecture.md#session-lifecycle): `count` when the estimated tokens exceed `budgetTokens`
 * or `turnCount` exceeds `turnBudget`; `time` when inactivity reaches `inactivityThresholdMinutes`; `semantic` when
 * `taskCompleted`. When several fire, count wins over time, and time over semantic.
 */
export function computeSessionHints(
  hints: LifecycleHints,
  estimatedTokens: number,
  now: number = Date.now(),
): SessionHints {
  const { budgetTokens, turnCount, turnBudget, inactivityThresholdMinutes } = hints;
  if (budgetTokens !== undefined && estimatedTokens > budgetTokens) {
    return {
      compactionRequired: true,
      triggerHint: 'count',
      reason: `estimated context of ${estimatedTokens} tokens exceeds the budget of ${budgetTokens}`,
    };
  }
  if (turnCount !== undefined && turnBudget !== undefined && turnCount > turnBudget) {
    return {
      compactionRequired: true,
      triggerHint: 'count',
      reason: `${turnCount} turns exceed the turn budget of ${turnBudget}`,
    };
  }
  const lastActivity = timestampOf(hints.lastActivityAt);
  if (lastActivity !== null && inactivityThresholdMinutes !== undefined) {
    const inactiveMinutes = (now - lastActivity) / MILLISECONDS_PER_MINUTE;
    if (inactiveMinutes >= inactivityThresholdMinutes) {
      return {
        compactionRequired: true,
        triggerHint: 'time',
        reason: `inactive for ${Math.floor(inactiveMinutes)} minutes (threshold ${inactivityThresholdMinutes})`,
      };
    }
  }
  if (hints.taskCompleted === true) {
    return { compactionRequired: true, triggerHint: 'semantic', reason: 'the task is completed' };
  }
  return { compactionRequired: false, triggerHint: null, reason: null };
}
