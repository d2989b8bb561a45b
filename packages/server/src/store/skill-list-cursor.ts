/**
 * Where a skills/files/list page ended: the sort key of its last file. Files are listed by path, then the request's
 * own file before shared ones (a set user before a shared one, then a set project), then id. At one path the visible
 * live files are in distinct (user, project) scopes, so the key is unique, and a page resumes after it exactly even
 * when files were added or deleted in between.
 */
export interface SkillListKey {
  path: string;
  userShared: 0 | 1;
  projectShared: 0 | 1;
  id: string;
}

const flag = (value: unknown): value is 0 | 1 => value === 0 || value === 1;

/** The opaque `nextCursor` for a key: base64url of a JSON array, so a client passes it back without reading it. */
export function encodeSkillListCursor(key: SkillListKey): string {
  return Buffer.from(JSON.stringify([key.path, key.userShared, key.projectShared, key.id]), 'utf8').toString(
    'base64url',
  );
}

/** The key of a cursor this server gave, or null for anything else (the caller answers 400 naming `cursor`). */
export function decodeSkillListCursor(cursor: string): SkillListKey | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return null;
  const [path, userShared, projectShared, id] = parsed as unknown[];
  if (typeof path !== 'string' || typeof id !== 'string' || !flag(userShared) || !flag(projectShared)) return null;
  return { path, userShared, projectShared, id };
}
