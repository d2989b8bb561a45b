/**
 * Counting a tenant's memories and vectors costs well under a millisecond up to about this many memories: below it
 * the readiness gate is checked on every call that relies on the policy, above it at most once a minute.
 */
const UNTHROTTLED_MEMORIES = 1_000;
const RECHECK_INTERVAL_MS = 60_000;

/**
 * When the readiness gate of one tenant database may run again (kept by its `TenantDatabase`, so it lives as long as
 * the database is open). Only a tenant still on a lexical policy that nobody set is checked, so the checks stop for
 * good once the autopilot promotes it.
 */
export class ReadinessSchedule {
  private checkedAt = Number.NEGATIVE_INFINITY;
  private memories = 0;

  /** Whether a check is due at `now` (a clock moved back makes one due at once). */
  due(now: Date): boolean {
    if (this.memories < UNTHROTTLED_MEMORIES) return true;
    const elapsed = now.getTime() - this.checkedAt;
    return elapsed < 0 || elapsed >= RECHECK_INTERVAL_MS;
  }

  /** Notes a check at `now` that counted `memories`. */
  checked(now: Date, memories: number): void {
    this.checkedAt = now.getTime();
    this.memories = memories;
  }
}
