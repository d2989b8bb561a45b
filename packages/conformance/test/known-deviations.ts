/** A check the reference server is known to fail, because the server (not the kit) departs from the contract. */
export interface KnownDeviation {
  /** The check's id (`group.name`), as the report shows it. */
  checkId: string;
  /** The contract section the server departs from. */
  section: string;
  /** What the server does instead, and what the fix is. */
  note: string;
}

/**
 * KNOWN_DEVIATIONS: checks of the conformance kit that `@memory-service/server` fails today. The conformance test
 * accepts exactly these failures and prints them; fixing the server means deleting the entry (the test then says so
 * when the check passes). Empty: the reference server passes every check.
 */
export const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [];
