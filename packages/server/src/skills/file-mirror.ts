import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResolvedScope } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import { describeError } from '../describe-error.js';
import type { Logger } from '../logger.js';

const SHARED = '_shared';
const GLOBAL = '_global';
/** The longest file name most file systems take (NAME_MAX), in bytes. */
const MAX_SEGMENT_BYTES = 255;
/** The longest path Linux takes (PATH_MAX), in bytes, terminator included. */
const MAX_PATH_BYTES = 4096;

/** Where one request's skill files are mirrored, and where a mirror that fails is logged. */
export interface SkillFileMirror {
  /** MEMORY_FILE_MODE_ENABLED: when off, nothing is checked, written or removed. */
  enabled: boolean;
  dataDir: string;
  ownerId: string;
  scope: ResolvedScope;
  logger: Logger;
  requestId: string;
}

/**
 * A path segment as a file name: letters, digits and `._@+-` stay, every other byte is percent-encoded (so two
 * different segments never share a file, as `a:b` and `a_b` did), and dot-only segments are encoded whole so they
 * can never climb out of the folder.
 */
function safeSegment(segment: string): string {
  let encoded = '';
  for (const character of segment) {
    if (/^[A-Za-z0-9._@+-]$/.test(character)) encoded += character;
    else
      for (const byte of Buffer.from(character, 'utf8'))
        encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return /^\.+$/.test(encoded) ? encoded.replace(/\./g, '%2E') : encoded;
}

/** The folder of one workspace's scope: `<dataDir>/skill-files/<owner>/<tenant>/<user>/<project>`. */
function scopeFolder(dataDir: string, ownerId: string, scope: ResolvedScope): string {
  return path.join(
    dataDir,
    'skill-files',
    safeSegment(ownerId),
    safeSegment(scope.tenantId ?? '_workspace'),
    safeSegment(scope.userId ?? SHARED),
    safeSegment(scope.projectId ?? GLOBAL),
  );
}

function pathSegments(skillPath: string): string[] {
  const segments = skillPath
    .split(/[\\/]+/)
    .filter((segment) => segment !== '')
    .map(safeSegment);
  return segments.length > 0 ? segments : ['_'];
}

/**
 * Where the file-mode mirror keeps a skill file: `<dataDir>/skill-files/<owner>/<tenant>/<user>/<project>/<path>`,
 * one folder per workspace (owner) so that one workspace never overwrites or deletes another's file, every segment
 * encoded so that a path can never leave that folder.
 */
export function mirrorPath(dataDir: string, ownerId: string, scope: ResolvedScope, skillPath: string): string {
  return path.join(scopeFolder(dataDir, ownerId, scope), ...pathSegments(skillPath));
}

function invalidPath(reason: string): ApiError {
  return new ApiError('INVALID_REQUEST', `path: ${reason} (MEMORY_FILE_MODE_ENABLED mirrors skill files to disk)`, {
    field: 'path',
  });
}

async function kindAt(file: string): Promise<'file' | 'folder' | 'other' | 'none'> {
  try {
    const stats = await lstat(file);
    return stats.isDirectory() ? 'folder' : stats.isFile() ? 'file' : 'other';
  } catch {
    return 'none';
  }
}

/**
 * With MEMORY_FILE_MODE_ENABLED, refuses (400 INVALID_REQUEST, `details.field` = `path`) a path the mirror cannot
 * hold, before anything is written: a segment over 255 bytes once encoded, or a path that collides with the mirror of
 * another file of the scope (`a` then `a/b`, or `a/b` then `a`).
 */
export async function assertMirrorable(mirror: SkillFileMirror, skillPath: string): Promise<void> {
  if (!mirror.enabled) return;
  const segments = pathSegments(skillPath);
  if (segments.some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
    throw invalidPath(`a path segment is longer than ${MAX_SEGMENT_BYTES} bytes once encoded as a file name`);
  }
  let current = scopeFolder(mirror.dataDir, mirror.ownerId, mirror.scope);
  if (Buffer.byteLength(path.join(current, ...segments)) >= MAX_PATH_BYTES) throw invalidPath('the path is too long');
  for (const [index, segment] of segments.entries()) {
    current = path.join(current, segment);
    const kind = await kindAt(current);
    if (kind === 'none') return;
    const last = index === segments.length - 1;
    if (last ? kind !== 'file' : kind !== 'folder') {
      const shown = skillPath
        .split(/[\\/]+/)
        .filter((part) => part !== '')
        .slice(0, index + 1)
        .join('/');
      throw invalidPath(
        last
          ? `'${shown}' is a folder of other skill files in this scope`
          : `'${shown}' is a skill file in this scope, so it cannot hold others`,
      );
    }
  }
}

/**
 * With MEMORY_FILE_MODE_ENABLED, writes a skill file's content to its mirror path (0600, folders 0700). The database
 * is the truth and the row is already committed: a failure is logged and reported as false, never thrown.
 */
export async function mirrorSkillFile(mirror: SkillFileMirror, skillPath: string, content: string): Promise<boolean> {
  if (!mirror.enabled) return true;
  const file = mirrorPath(mirror.dataDir, mirror.ownerId, mirror.scope, skillPath);
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, content, { encoding: 'utf8', mode: 0o600 });
    return true;
  } catch (error) {
    mirror.logger.warn('skill file mirror not written', {
      requestId: mirror.requestId,
      error: describeError(error),
    });
    return false;
  }
}

/** With MEMORY_FILE_MODE_ENABLED, removes a deleted skill file's mirror (a failure is logged, never thrown). */
export async function removeSkillFileMirror(mirror: SkillFileMirror, skillPath: string): Promise<void> {
  if (!mirror.enabled) return;
  const file = mirrorPath(mirror.dataDir, mirror.ownerId, mirror.scope, skillPath);
  try {
    if ((await kindAt(file)) !== 'folder') await rm(file, { force: true });
  } catch (error) {
    mirror.logger.warn('skill file mirror not removed', {
      requestId: mirror.requestId,
      error: describeError(error),
    });
  }
}
