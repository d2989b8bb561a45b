import type { MemoryClient, SkillFile } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';

/** The most skill files the list reads in one go (before "Load more"): what one skills/list page used to hold. */
export const SKILL_FILES_PER_LOAD = LIMITS.skillListLimit.max;
/**
 * The most skills/list pages one load of the list reads. A page holds at most `LIMITS.skillListBytes` (1 MiB) of
 * text, so a load reads at most this many MiB however large the files are.
 */
export const SKILL_LIST_PAGES_PER_LOAD = 20;
/**
 * The most skills/list pages a skill file's page reads to find its file (the API reads skill files only as a list):
 * at most this many MiB, and at least `SKILL_LIST_PAGES_PER_FIND` files (at most 500 a page).
 */
export const SKILL_LIST_PAGES_PER_FIND = 50;

/** Skill files in list order, and where the list goes on. */
export interface SkillFileBatch {
  files: SkillFile[];
  /** The `cursor` that lists the files after `files`; null when no file follows. */
  nextCursor: string | null;
}

/** One skills/list page from `cursor` (the start when undefined); fails if the page would not move the list on. */
async function listPage(
  client: MemoryClient,
  signal: AbortSignal | undefined,
  limit: number,
  cursor: string | undefined,
): Promise<SkillFileBatch> {
  const page = await client.skills.list(cursor === undefined ? { limit } : { limit, cursor }, { signal });
  if (page.nextCursor !== null && (page.skillFiles.length === 0 || page.nextCursor === cursor)) {
    throw new Error('skills/list answered a page that does not move on (no file, or the same cursor)');
  }
  return { files: page.skillFiles, nextCursor: page.nextCursor };
}

/**
 * The skill files visible in the scope, ordered by path, from `cursor` (the first when undefined): the skills/list
 * pages that follow, until none follows, `SKILL_FILES_PER_LOAD` files or `SKILL_LIST_PAGES_PER_LOAD` pages. A
 * non-null `nextCursor` says more files follow.
 */
export async function loadSkillFiles(
  client: MemoryClient,
  signal?: AbortSignal,
  cursor?: string,
): Promise<SkillFileBatch> {
  const files: SkillFile[] = [];
  let next = cursor;
  for (let pages = 0; pages < SKILL_LIST_PAGES_PER_LOAD && files.length < SKILL_FILES_PER_LOAD; pages += 1) {
    const page = await listPage(client, signal, SKILL_FILES_PER_LOAD - files.length, next);
    files.push(...page.files);
    if (page.nextCursor === null) return { files, nextCursor: null };
    next = page.nextCursor;
  }
  return { files, nextCursor: next ?? null };
}

/** What looking for one skill file by path found. */
export interface FoundSkillFile {
  /** The file the scope sees at the path (its own before a shared one, as skills/list orders them), else null. */
  file: SkillFile | null;
  /** Whether the search stopped at `SKILL_LIST_PAGES_PER_FIND` pages without the file, with files left unread. */
  stoppedEarly: boolean;
  /** How many files were read. */
  read: number;
}

/** Finds the skill file at `path` in skills/list, reading the pages in order until it shows up. */
export async function findSkillFile(client: MemoryClient, path: string, signal: AbortSignal): Promise<FoundSkillFile> {
  let read = 0;
  let cursor: string | undefined;
  for (let pages = 0; pages < SKILL_LIST_PAGES_PER_FIND; pages += 1) {
    const page = await listPage(client, signal, SKILL_FILES_PER_LOAD, cursor);
    read += page.files.length;
    const file = page.files.find((candidate) => candidate.path === path);
    if (file !== undefined) return { file, stoppedEarly: false, read };
    if (page.nextCursor === null) return { file: null, stoppedEarly: false, read };
    cursor = page.nextCursor;
  }
  return { file: null, stoppedEarly: true, read };
}

/** The session a promoted skill file came from (`metadata.source.sessionId`), else null. */
export function sourceSessionOf(file: SkillFile): string | null {
  const source = file.metadata['source'];
  if (typeof source !== 'object' || source === null) return null;
  const id = (source as Record<string, unknown>)['sessionId'];
  return typeof id === 'string' && id !== '' ? id : null;
}
