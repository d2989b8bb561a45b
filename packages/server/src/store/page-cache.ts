import { statSync } from 'node:fs';

/** SQLite's own default page cache for a connection (2,000 KiB): what a small database keeps. */
const DEFAULT_CACHE_KIB = 2_000;
/** The most one connection keeps, whatever its database's size. */
const MAX_CACHE_KIB = 65_536;
/**
 * A connection keeps a 512th of its database file in SQLite's page cache. A lookup by key (a memory's row, a vector, a
 * DiskANN node) walks its B-tree from the root: the pages above the leaves are about one in 500 of the tree (an 8 KB
 * interior page points to hundreds of children), and every lookup passes through them, while its leaf is usually new.
 * Kept in the cache, they are not read from the OS again for each lookup; SQLite's fixed 2 MB holds them for a small
 * database only. On one tenant of 1M memories (a 19 GB file), the two vector lists of a hybrid query took 56-73 ms
 * with 2 MB, 45-49 with 16 MB, 32-37 with 32 MB and 31-36 with 128 MB (BENCHMARKS.md, "Issue 27, thirteenth round").
 * The cache grows only with the pages read, and a database has at most one connection on each database worker
 * (`MEMORY_DATABASE_WORKERS`, two by default): its connections keep at most a 256th of its file with two workers, and
 * never more than `MAX_CACHE_KIB` each.
 */
const FILE_SHARE = 512;

/** The page cache (KiB) for a connection to a database whose file holds `fileBytes`. */
export function pageCacheKib(fileBytes: number): number {
  return Math.min(MAX_CACHE_KIB, Math.max(DEFAULT_CACHE_KIB, Math.floor(fileBytes / FILE_SHARE / 1024)));
}

/** The page cache (KiB) for a connection to the database at `path` as it is now (a new database: the default). */
export function pageCacheKibFor(path: string): number {
  try {
    return pageCacheKib(statSync(path).size);
  } catch {
    return DEFAULT_CACHE_KIB;
  }
}
