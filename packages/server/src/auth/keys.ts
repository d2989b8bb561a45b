import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API keys: `mem_` + 64 lowercase hex characters (docs/architecture.md#errors-auth-and-limits). */
export const API_KEY_PATTERN = /^mem_[0-9a-f]{64}$/;

/** Makes a new random API key. */
export function generateApiKey(): string {
  return `mem_${randomBytes(32).toString('hex')}`;
}

/** SHA-256 of a key, hex: the only form a key is stored in. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The preview shown in inventories: first 12 characters, 20 stars, last 4. */
export function previewApiKey(key: string): string {
  return `${key.slice(0, 12)}${'*'.repeat(20)}${key.slice(-4)}`;
}

/** Compares two secrets in constant time (for the admin token). */
export function secretsEqual(given: string, expected: string): boolean {
  const givenHash = createHash('sha256').update(given).digest();
  const expectedHash = createHash('sha256').update(expected).digest();
  return timingSafeEqual(givenHash, expectedHash);
}
