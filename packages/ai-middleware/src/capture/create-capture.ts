import type { MemoryClient } from '@memory-service/client';
import type { Scope } from '@memory-service/contract';
import { isMeaningful } from '../lifecycle/is-meaningful.js';
import {
  CAPTURE_TAG_PREFIX,
  type CapturedTurn,
  type CaptureEvent,
  type CaptureOption,
  type ExtractCapture,
} from './capture-options.js';
import { createDeduplicator } from './dedupe.js';
import { type ExtractedMemory, extractMemories } from './extract-memories.js';
import { type Candidate, turnCandidates } from './turn-candidates.js';

/** What the turn's tool calls saved (any call with a `content` string: addMemory, editMemory...), as known texts. */
function savedByTools(calls: CapturedTurn['toolCalls']): { id: string; content: string }[] {
  return calls.flatMap((call) => {
    try {
      const input: unknown = JSON.parse(call.input);
      const content =
        typeof input === 'object' && input !== null ? (input as { content?: unknown }).content : undefined;
      return typeof content === 'string' ? [{ id: `${call.toolName} call`, content }] : [];
    } catch {
      return [];
    }
  });
}

/** A rule the app did not allow becomes an ordinary memory: still recalled when relevant, never an instruction. */
function withoutRules(memory: ExtractedMemory, allowRuleWrites: boolean): ExtractedMemory {
  if (allowRuleWrites) return memory;
  return {
    ...memory,
    type: memory.type === 'rule' ? 'note' : memory.type,
    layer: memory.layer === 'rule' ? 'long_term' : memory.layer,
  };
}

function extractedCandidate(memory: ExtractedMemory, turn: CapturedTurn): Candidate {
  return {
    content: memory.content.trim(),
    type: memory.type,
    layer: memory.layer,
    tags: [`${CAPTURE_TAG_PREFIX}extract`],
    metadata: {
      capture: 'extract',
      kind: memory.kind,
      ...(memory.replaces === null ? {} : { replaces: memory.replaces }),
      ...(turn.sessionId === undefined ? {} : { sessionId: turn.sessionId }),
    },
  };
}

/**
 * The capture of one middleware: after each finished user turn, stores what the turn holds worth keeping
 * (`'turns'`: `turnCandidates`) or what the extraction model names in it, skipping what is already remembered. A
 * correction of a stored memory is settled by the server's consolidation, which supersedes the stored memory and
 * keeps it as history. Throws on failure; the middleware runs it in the background and reports.
 */
export function createCapture({
  client,
  scope,
  option,
  onCapture,
}: {
  client: MemoryClient;
  scope: Scope | undefined;
  option: CaptureOption;
  onCapture: ((event: CaptureEvent) => void) | undefined;
}): ((turn: CapturedTurn) => Promise<void>) | undefined {
  if (option === 'off') return undefined;
  const deduplicator = createDeduplicator(client, scope);
  const extract: ExtractCapture | undefined = option === 'turns' ? undefined : option;

  async function store(candidates: readonly Candidate[], known: CapturedTurn['known']) {
    const added: CaptureEvent['added'] = [];
    let duplicates = 0;
    for (const candidate of candidates) {
      if (await deduplicator.isKnown(candidate.content, known)) {
        duplicates += 1;
        continue;
      }
      const result = await client.memories.add({ ...candidate, scope });
      deduplicator.remember(candidate.content);
      // The server answers an equal live memory instead of storing a copy: nothing was added.
      if (result.deduplicated === true) duplicates += 1;
      else added.push({ id: result.id, content: candidate.content });
    }
    return { added, duplicates };
  }

  return async (turn) => {
    const known = [...turn.known, ...savedByTools(turn.toolCalls)];
    if (extract === undefined) {
      const { added, duplicates } = await store(turnCandidates(turn), known);
      onCapture?.({ type: 'captured', mode: 'turns', added, duplicates, superseded: [] });
      return;
    }
    // Filler ("thanks!") has nothing to extract: no model call.
    if (!isMeaningful(turn.userText)) return;
    const extracted = (await extractMemories(extract.extract, turn, extract.instructions)).map((memory) =>
      withoutRules(memory, extract.allowRuleWrites === true),
    );
    const { added, duplicates } = await store(
      extracted.map((memory) => extractedCandidate(memory, turn)),
      known,
    );
    const corrections = extracted.filter(
      (memory) =>
        (memory.replaces !== null || memory.kind === 'correction') &&
        added.some((stored) => stored.content === memory.content.trim()),
    );
    let superseded: string[] = [];
    if (corrections.length > 0) {
      const types = [...new Set(corrections.map((memory) => memory.type))];
      const run = await client.memories.consolidate({ types, dryRun: false, scope });
      superseded = run.supersededMemoryIds;
    }
    onCapture?.({ type: 'captured', mode: 'extract', added, duplicates, superseded });
  };
}
