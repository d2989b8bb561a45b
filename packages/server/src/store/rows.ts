/** Parses a JSON column, falling back when the stored text is unreadable. */
export function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A nullable text column. */
export function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
