import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResolvedScope } from '@memory-service/contract';
import type { HandlerContext } from '../handlers/types.js';

const SHARED = '_shared';
const GLOBAL = '_global';

function safeSegment(segment: string): string {
  // Anything outside a conservative set becomes `_`; dot-only segments can never climb out of the folder.
  const cleaned = segment.replace(/[^A-Za-z0-9._@+-]/g, '_');
  return /^\.+$/.test(cleaned) ? cleaned.replace(/\./g, '_') : cleaned;
}

/**
 * Where the file-mode mirror keeps a skill file: `<dataDir>/skill-files/<tenant>/<user>/<project>/<path>`,
 * every segment sanitised so that a path can never leave that folder.
 */
export function mirrorPath(dataDir: string, scope: ResolvedScope, skillPath: string): string {
  const segments = skillPath
    .split(/[\\/]+/)
    .filter((segment) => segment !== '')
    .map(safeSegment);
  return path.join(
    dataDir,
    'skill-files',
    safeSegment(scope.tenantId ?? '_workspace'),
    safeSegment(scope.userId ?? SHARED),
    safeSegment(scope.projectId ?? GLOBAL),
    ...(segments.length > 0 ? segments : ['_']),
  );
}

/** With MEMORY_FILE_MODE_ENABLED, writes a skill file's content to its mirror path (the database stays the truth). */
export async function mirrorSkillFile(context: HandlerContext, skillPath: string, content: string): Promise<void> {
  if (!context.services.config.flags.MEMORY_FILE_MODE_ENABLED) return;
  const file = mirrorPath(context.services.config.dataDir, context.scope, skillPath);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content, 'utf8');
}

/** With MEMORY_FILE_MODE_ENABLED, removes a deleted skill file's mirror. */
export async function removeSkillFileMirror(context: HandlerContext, skillPath: string): Promise<void> {
  if (!context.services.config.flags.MEMORY_FILE_MODE_ENABLED) return;
  await rm(mirrorPath(context.services.config.dataDir, context.scope, skillPath), { force: true });
}
