/** FNV-1a of a string: the same number on every run, so a case gets the same fillers and dates every time. */
export function stableHash(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return hash;
}
