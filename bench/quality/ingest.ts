import type { InProcessServer } from '../retrieval/in-process-server.js';
import { resolveWhen } from './clock.js';
import { fillersFor } from './corpus/index.js';
import type { Timeline } from './corpus/timeline-types.js';
import type { PairCase } from './corpus/types.js';
import { tenantOf } from './scope.js';
import { stableHash } from './stable-hash.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Neutral memories per case (see `corpus/filler.ts`). */
export const FILLERS_PER_CASE = 3;

/** What the writes of a pair case left: the ids answered, and whether the second add was folded into the first. */
export interface WrittenPair {
  tenantId: string;
  firstId: string;
  secondId: string;
  /** The second add answered `deduplicated: true`. */
  dedupAtWrite: boolean;
  fillerIds: string[];
  /** Filler adds that answered `deduplicated: true` (folded into something they do not repeat). */
  fillersDeduplicated: number;
}

/** What the writes of a timeline left: each memory's id by key, and when it was said. */
export interface WrittenTimeline {
  tenantId: string;
  idOf: Map<string, string>;
  fillerIds: string[];
  deduplicated: number;
}

async function add(
  server: InProcessServer,
  tenantId: string,
  content: string,
  occurredAt: Date,
): Promise<{ id: string; deduplicated: boolean }> {
  const data = await server.call<{ id: string; deduplicated?: boolean }>('POST', '/memories/add', {
    content,
    occurredAt: occurredAt.toISOString(),
    scope: { tenantId },
  });
  return { id: data.id, deduplicated: data.deduplicated === true };
}

/**
 * Writes a pair case as a user would say it: the first statement 10 to 89 days ago, the fillers in between, the
 * second statement 1 to 72 hours ago (both stable per case id), each add after the one before.
 */
export async function writePair(server: InProcessServer, pair: PairCase, now: Date): Promise<WrittenPair> {
  const tenantId = tenantOf(pair.id);
  const hash = stableHash(pair.id);
  const firstAt = now.getTime() - (10 + (hash % 80)) * DAY;
  const secondAt = now.getTime() - (1 + (hash % 72)) * HOUR;
  const first = await add(server, tenantId, pair.first, new Date(firstAt));
  const fillers = fillersFor(pair.id, pair.domain, FILLERS_PER_CASE);
  const fillerIds: string[] = [];
  let fillersDeduplicated = 0;
  for (const [index, filler] of fillers.entries()) {
    const at = firstAt + ((secondAt - firstAt) * (index + 1)) / (fillers.length + 1);
    const added = await add(server, tenantId, filler, new Date(at));
    fillerIds.push(added.id);
    if (added.deduplicated) fillersDeduplicated += 1;
  }
  const second = await add(server, tenantId, pair.second, new Date(secondAt));
  return {
    tenantId,
    firstId: first.id,
    secondId: second.id,
    dedupAtWrite: second.deduplicated,
    fillerIds,
    fillersDeduplicated,
  };
}

/**
 * Writes a timeline: its fillers first, said over a year before anything on the topic, then its memories oldest
 * first, each at its resolved time.
 */
export async function writeTimeline(server: InProcessServer, timeline: Timeline, now: Date): Promise<WrittenTimeline> {
  const tenantId = tenantOf(timeline.id);
  const fillerIds: string[] = [];
  let deduplicated = 0;
  for (const [index, filler] of fillersFor(timeline.id, timeline.domain, FILLERS_PER_CASE).entries()) {
    const added = await add(server, tenantId, filler, new Date(now.getTime() - (400 + 10 * index) * DAY));
    fillerIds.push(added.id);
    if (added.deduplicated) deduplicated += 1;
  }
  const idOf = new Map<string, string>();
  const byTime = timeline.memories
    .map(([key, when, content]) => ({ key, content, at: resolveWhen(when, now) }))
    .sort((left, right) => left.at.getTime() - right.at.getTime());
  for (const memory of byTime) {
    const added = await add(server, tenantId, memory.content, memory.at);
    idOf.set(memory.key, added.id);
    if (added.deduplicated) deduplicated += 1;
  }
  return { tenantId, idOf, fillerIds, deduplicated };
}
