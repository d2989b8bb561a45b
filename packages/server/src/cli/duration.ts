import { UsageError } from './cli-io.js';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MINIMUM_MS = UNIT_MS.m;
const MAXIMUM_MS = 365 * UNIT_MS.d;

/**
 * Parses `--expires-in` (`90m`, `12h`, `30d`) into milliseconds, within the range the management route
 * accepts for a key's expiry: 1 minute to 365 days.
 */
export function parseExpiresIn(text: string): number {
  const match = /^(\d+)\s*([mhd])$/i.exec(text.trim());
  const amount = match?.[1];
  const unit = match?.[2]?.toLowerCase() as keyof typeof UNIT_MS | undefined;
  const problem = `--expires-in must be a duration like 90m, 12h or 30d, from 1 minute to 365 days (got "${text}")`;
  if (amount === undefined || unit === undefined) throw new UsageError(problem, 'keys create');
  const milliseconds = Number(amount) * UNIT_MS[unit];
  if (milliseconds < MINIMUM_MS || milliseconds > MAXIMUM_MS) throw new UsageError(problem, 'keys create');
  return milliseconds;
}
