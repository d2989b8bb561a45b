/** What became of one check. `skip` is neither a pass nor a failure: the check could not run here (why is in `reason`). */
export type CheckStatus = 'pass' | 'fail' | 'skip';

/** One check's result, as the terminal and JSON reports show it. */
export interface CheckResult {
  /** Stable id, `group.name` (for example `memories.add-201`): what a known-deviations list names. */
  id: string;
  group: string;
  /** What the check asserts, in one sentence. */
  title: string;
  /** The section of the HTTP contract v1 document the check is derived from. */
  section: string;
  status: CheckStatus;
  /** Why it failed or was skipped (absent on a pass). */
  reason?: string;
  durationMs: number;
}

/** The whole run: what was checked, against what, and the outcome of each check. */
export interface ConformanceReport {
  tool: { name: string; version: string };
  /** The base URL the run checked (without `/api/sdk/v1`). */
  baseUrl: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** The namespace the run wrote in (tenants it created, user and project ids), all cleaned up at the end. */
  namespace: { tenantIds: string[]; userIds: string[]; projectId: string };
  /** Groups that ran (`--only`, or all). `setup` and `cleanup` always run. */
  groups: string[];
  /** HTTP requests and MCP calls the run made. */
  requestCount: number;
  summary: { total: number; passed: number; failed: number; skipped: number };
  results: CheckResult[];
}

/** Counts results by status. */
export function summarize(results: readonly CheckResult[]): ConformanceReport['summary'] {
  const count = (status: CheckStatus) => results.filter((result) => result.status === status).length;
  return { total: results.length, passed: count('pass'), failed: count('fail'), skipped: count('skip') };
}
