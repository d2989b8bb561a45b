/**
 * Idempotent writes (an extension beyond the written contract): a write request may carry an `Idempotency-Key`
 * header, with Stripe's semantics. The first request with a key runs; a later one with the same key and the same
 * body gets the first one's answer again (status and data, with `Idempotent-Replayed: true`) and changes nothing; the
 * same key with another body, or on another route, is refused (409 `IDEMPOTENCY_KEY_REUSED`). A request arriving
 * while the first is still running waits for it when it runs in the same process, else is told to retry
 * (409 `IDEMPOTENCY_KEY_IN_USE`, retryable). Keys are kept for `IDEMPOTENCY.retentionHours` after first use, per
 * workspace. Read-only routes ignore the header.
 */
export const IDEMPOTENCY = {
  /** The request header. */
  header: 'Idempotency-Key',
  /** The response header on a replayed answer. */
  replayedHeader: 'Idempotent-Replayed',
  /** A key is 1 to this many characters of printable ASCII (a UUID is 36). */
  maxKeyLength: 255,
  /** How long a key's answer is kept and replayed after its first use. */
  retentionHours: 24,
} as const;

/** Whether a header value is a usable idempotency key: 1..255 printable ASCII characters. */
export function isIdempotencyKey(value: string): boolean {
  return value.length >= 1 && value.length <= IDEMPOTENCY.maxKeyLength && /^[\x21-\x7e]+$/.test(value);
}
