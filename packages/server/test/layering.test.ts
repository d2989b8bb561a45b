import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * The server's floors, ground first. A folder or top-level file (a "room", named without `.ts`) may import only
 * rooms on a lower floor; rooms on one floor do not import each other.
 */
const FLOORS: ReadonlyArray<{ rooms: readonly string[]; reason: string }> = [
  {
    rooms: ['api-error', 'describe-error', 'logger', 'auth', 'sessions', 'evaluation', 'docs', 'console'],
    reason: 'leaves every layer may use: the error type, error text for logs, the logger, pure helpers',
  },
  {
    rooms: ['embedding-models', 'spawn-worker'],
    reason: 'leaves too: the embedding models config names and validates, the start of a worker thread',
  },
  {
    rooms: ['request-scope', 'config', 'skills'],
    reason: 'the request deadline, settings read once at start, the skill-file mirror (files only)',
  },
  { rooms: ['observability'], reason: 'what a request observes of its own work (spans, calls, history buckets)' },
  { rooms: ['store', 'http-limits'], reason: 'the tables and their statements, group commit included' },
  { rooms: ['admission'], reason: "the pipeline's state: rate-limit windows, tenant lanes, idempotency keys" },
  { rooms: ['consolidation'], reason: 'plans merges of stored memories and writes them through the store' },
  { rooms: ['tenancy'], reason: 'turns a caller and tenant into an open tenant database' },
  { rooms: ['embeddings'], reason: 'vectors for a tenant database: models, inference, backfill' },
  { rooms: ['writes', 'workers'], reason: 'memory writes over a tenant; worker threads running store and inference' },
  { rooms: ['retrieval'], reason: 'lexical, semantic and hybrid search, the shadow hybrid run included' },
  { rooms: ['rollout'], reason: 'gates and plans promotion from measured retrieval' },
  { rooms: ['graph'], reason: 'expands retrieval results over memory edges, per the rollout' },
  { rooms: ['context'], reason: 'assembles a context call from retrieval and the graph, with its trace' },
  { rooms: ['indexing', 'transfer'], reason: 'background jobs that write vectors and edges; export and import' },
  { rooms: ['operator'], reason: 'what an operator sees of the whole server: metrics, readiness, traces' },
  { rooms: ['services'], reason: 'the bag of long-lived parts the pipeline hands to handlers' },
  { rooms: ['pipeline'], reason: 'one path for every operation: auth, limits, tenant, deadline, envelope' },
  {
    rooms: ['handlers', 'operator-routes'],
    reason: 'one function per operation, run by the pipeline; the /metrics and /ready routes',
  },
  { rooms: ['mcp'], reason: 'the MCP transport over the same handlers and pipeline' },
  { rooms: ['app', 'bootstrap'], reason: 'the Hono app and the construction of services' },
  { rooms: ['server'], reason: 'the listening server' },
  { rooms: ['cli'], reason: 'the command line' },
  { rooms: ['index'], reason: "the package's public names" },
];

/**
 * Upward imports that need a redesign, not a move. `from` and `to` are paths under src; one ending in `/` names every
 * file of that folder.
 */
const KNOWN_EXCEPTIONS: ReadonlyArray<{ from: readonly string[]; to: readonly string[]; reason: string }> = [];

const IMPORT_PATTERN = /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The room of a path under src: its top-level folder, or the top-level file without `.ts`. */
function roomOf(relative: string): string {
  return (relative.split('/')[0] ?? relative).replace(/\.ts$/, '');
}

interface Arrow {
  from: string;
  to: string;
}

function importsBetweenRooms(): Arrow[] {
  const arrows: Arrow[] = [];
  for (const file of sourceFiles(SOURCE_ROOT)) {
    const from = path.relative(SOURCE_ROOT, file).split(path.sep).join('/');
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT_PATTERN)) {
      const target = path.resolve(path.dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts'));
      const to = path.relative(SOURCE_ROOT, target).split(path.sep).join('/');
      // package.json and the like lie outside src: no room of the server.
      if (to.startsWith('..') || roomOf(from) === roomOf(to)) continue;
      arrows.push({ from, to });
    }
  }
  return arrows;
}

const floorOf = new Map(FLOORS.flatMap((floor, index) => floor.rooms.map((room) => [room, index] as const)));

function covers(exception: (typeof KNOWN_EXCEPTIONS)[number], arrow: Arrow): boolean {
  const matches = (paths: readonly string[], file: string) =>
    paths.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
  return matches(exception.from, arrow.from) && matches(exception.to, arrow.to);
}

function runsUp(arrow: Arrow): boolean {
  return (floorOf.get(roomOf(arrow.to)) ?? 0) >= (floorOf.get(roomOf(arrow.from)) ?? 0);
}

describe('server layering', () => {
  const arrows = importsBetweenRooms();

  it('reads the imports between rooms', () => {
    expect(arrows.length).toBeGreaterThan(100);
  });

  it('places every room on a floor', () => {
    const rooms = new Set(arrows.flatMap((arrow) => [roomOf(arrow.from), roomOf(arrow.to)]));
    expect([...rooms].filter((room) => !floorOf.has(room))).toEqual([]);
  });

  it('imports only downward, apart from the known exceptions', () => {
    const upward = arrows
      .filter((arrow) => runsUp(arrow) && !KNOWN_EXCEPTIONS.some((exception) => covers(exception, arrow)))
      .map((arrow) => `${arrow.from} -> ${arrow.to}`);
    expect(upward).toEqual([]);
  });

  it('keeps no exception that no import needs', () => {
    const unused = KNOWN_EXCEPTIONS.filter(
      (exception) => !arrows.some((arrow) => runsUp(arrow) && covers(exception, arrow)),
    );
    expect(unused.map((exception) => exception.reason)).toEqual([]);
  });
});
