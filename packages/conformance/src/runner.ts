import { CheckFailure, CheckSkipped } from './expect.js';
import type { CheckResult } from './report.js';

/** Options of one check. */
export interface CheckOptions {
  /** The check needs the admin token (`--admin-token`); without one it is reported as skipped. */
  admin?: boolean;
}

/**
 * Runs the checks of one group in order, recording each result. A check is a function that throws
 * `CheckFailure` (fail), `CheckSkipped` (skip) or any other error (fail, with its message); what it returns is
 * handed back so that later checks can use it (`undefined` when it did not pass).
 */
export class GroupRunner {
  readonly results: CheckResult[] = [];

  constructor(
    readonly group: string,
    private readonly hasAdminToken: boolean,
    private readonly onResult?: (result: CheckResult) => void,
  ) {}

  async check<T>(
    name: string,
    title: string,
    section: string,
    run: () => Promise<T>,
    options: CheckOptions = {},
  ): Promise<T | undefined> {
    const started = performance.now();
    const record = (status: CheckResult['status'], reason?: string) => {
      const result: CheckResult = {
        id: `${this.group}.${name}`,
        group: this.group,
        title,
        section,
        status,
        ...(reason === undefined ? {} : { reason }),
        durationMs: Math.round(performance.now() - started),
      };
      this.results.push(result);
      this.onResult?.(result);
    };
    if (options.admin && !this.hasAdminToken) {
      record('skip', 'needs the admin token (--admin-token)');
      return undefined;
    }
    try {
      const value = await run();
      record('pass');
      return value;
    } catch (error) {
      if (error instanceof CheckSkipped) record('skip', error.message);
      else if (error instanceof CheckFailure) record('fail', error.message);
      else record('fail', `unexpected error: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }
}
