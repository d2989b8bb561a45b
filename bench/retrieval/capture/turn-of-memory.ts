import type { TurnMemory } from '../locomo.js';

/** The turns one replayed call sent the middleware: the user message, and the history's answers, newest first. */
export interface SentTurns {
  user: TurnMemory;
  answers: readonly TurnMemory[];
}

// Capture labels what it stores by the role it was taken from: the user's message, or a reply the user accepted.
const LABEL = /^(User|Assistant \(accepted\)): /;

/** A text's words, lower case, punctuation and markdown left out ("I'm" gives "i", "m"). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Where `part` occurs as consecutive words of `words`, at or after `from`; -1 when it does not. */
function indexOfWords(words: readonly string[], part: readonly string[], from: number): number {
  for (let start = from; start + part.length <= words.length; start += 1) {
    if (part.every((word, offset) => words[start + offset] === word)) return start;
  }
  return -1;
}

/**
 * Whether a captured text was taken from a message: each of its sentences is a run of the message's words, in the
 * message's order. Capture keeps whole sentences or clauses and may leave others out between them, so the memory as
 * a whole need not be a run of the message; its sentences must, which a message they were not taken from seldom
 * matches, and only the messages of the memory's own call are tried.
 */
function takenFrom(memory: string, message: string): boolean {
  const words = wordsOf(message);
  let from = 0;
  for (const sentence of memory.split(/(?<=[.!?…])\s+/)) {
    const part = wordsOf(sentence);
    if (part.length === 0) continue;
    const at = indexOfWords(words, part, from);
    if (at === -1) return false;
    from = at + part.length;
  }
  return from > 0;
}

/**
 * The dialog id of the turn a captured memory was taken from, among the turns its call sent: the user message for
 * `User: …`, the newest answer it is taken from for `Assistant (accepted): …`. Undefined when no sent turn holds it
 * (the memory is then counted unmapped, never credited to a turn that happens to share its words).
 */
export function turnOfMemory(
  content: string,
  sent: SentTurns,
  messageOf: (turn: TurnMemory) => string,
): string | undefined {
  const label = LABEL.exec(content);
  if (label === null) return undefined;
  const text = content.slice(label[0].length);
  const candidates = label[1] === 'User' ? [sent.user] : sent.answers;
  return candidates.find((turn) => takenFrom(text, messageOf(turn)))?.diaId;
}
