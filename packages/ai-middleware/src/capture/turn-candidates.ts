import { LIMITS, type MemoryLayer, type MemoryType } from '@memory-service/contract';
import type { MemoryToolName } from '../tools/memory-tools.js';
import { acceptedSentences } from './accepted-reply.js';
import { CAPTURE_TAG_PREFIX, type CapturedTurn } from './capture-options.js';
import { joinSentences } from './sentences.js';
import { statedSentences } from './stated-sentences.js';

/** One memory capture wants to store. */
export interface Candidate {
  content: string;
  type: MemoryType;
  layer?: MemoryLayer;
  tags: string[];
  metadata: Record<string, string>;
}

/** The memory tools that write what a turn said (forgetting writes nothing the raw turn could repeat). */
const WRITING_TOOLS: ReadonlySet<string> = new Set(['addMemory', 'editMemory'] satisfies MemoryToolName[]);

function candidate(label: string, sentences: string[], metadata: Record<string, string>): Candidate {
  const prefix = `${label}: `;
  return {
    content: prefix + joinSentences(sentences, LIMITS.memoryContent.max - prefix.length),
    type: 'note',
    tags: [`${CAPTURE_TAG_PREFIX}turn`],
    metadata: { capture: 'turn', ...metadata },
  };
}

/**
 * What `capture: 'turns'` keeps of a turn. Nothing when the model wrote a memory with a tool during the turn: it read
 * the same message and kept what it judged worth keeping, in its own words, which no text comparison can reliably
 * match to the raw message. Otherwise, the assistant's previous reply when this message accepts it (only its
 * decisions and what it says about the user, marked `accepted`), then what the user stated (`statedSentences`).
 * The current answer is never kept by itself: nobody has agreed to it yet.
 */
export function turnCandidates(turn: CapturedTurn): Candidate[] {
  if (turn.toolCalls.some((call) => WRITING_TOOLS.has(call.toolName))) return [];
  const session: Record<string, string> = turn.sessionId === undefined ? {} : { sessionId: turn.sessionId };
  const accepted = acceptedSentences(turn.userText, turn.previousAnswer);
  const stated = statedSentences(turn.userText);
  return [
    ...(accepted.length === 0
      ? []
      : [candidate('Assistant (accepted)', accepted, { role: 'assistant', accepted: 'true', ...session })]),
    ...(stated.length === 0 ? [] : [candidate('User', stated, { role: 'user', ...session })]),
  ];
}
