import type { RunEnvironment } from '../environment.js';
import type { GroupRunner } from '../runner.js';

/** A group of checks: one area of the contract, run in order (later checks may use what earlier ones created). */
export interface CheckGroup {
  /** What `--only` names. */
  id: string;
  title: string;
  /** What the group checks, in one sentence (the README's table and `--help` show it). */
  summary: string;
  run(runner: GroupRunner, environment: RunEnvironment): Promise<void>;
}

/** A unique marker word for the contents a check writes, so that searches find exactly those records. */
export function marker(label: string): string {
  return `${label}${Math.random().toString(36).slice(2, 10)}`;
}
