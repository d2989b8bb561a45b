import type { Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { mirrorPath } from '../../skills/file-mirror.js';

/** The folder every skill file mirror of one user of one database lives under (every project of theirs). */
export function userMirrorFolder(dataDir: string, ownerId: string, tenantId: string | null, userId: string): string {
  // mirrorPath is `<dataDir>/skill-files/<owner>/<tenant>/<user>/<project>/<path>`: two levels up from a one-segment
  // path of the global project is the user's folder, encoded as the mirror encodes it.
  return path.dirname(path.dirname(mirrorPath(dataDir, ownerId, { tenantId, userId, projectId: null }, '_')));
}

async function countFiles(folder: string): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 0;
    throw error;
  }
  return entries.filter((entry) => !entry.isDirectory()).length;
}

/**
 * Removes the skill file mirrors (MEMORY_FILE_MODE_ENABLED) of one user of one database: their whole folder, so a
 * mirror left by an earlier failure goes too. Returns how many files were removed. A userId starts with a letter or
 * digit, so the folder is never `_shared` (the shared records' mirrors); it is checked all the same.
 */
export async function eraseSkillMirrors(
  dataDir: string,
  ownerId: string,
  tenantId: string | null,
  userId: string,
): Promise<number> {
  const folder = userMirrorFolder(dataDir, ownerId, tenantId, userId);
  if (path.basename(folder) === '_shared') return 0;
  const files = await countFiles(folder);
  await rm(folder, { recursive: true, force: true });
  return files;
}
