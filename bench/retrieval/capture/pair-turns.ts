import type { TurnMemory } from '../locomo.js';

/** One replayed model call: a user message and the answer the mock model gives (none: it answers nothing). */
export interface TurnPair {
  user: TurnMemory;
  answer: TurnMemory | undefined;
}

/** The pairs of one LoCoMo session, replayed as one chat. */
export interface SessionPairs {
  session: number;
  pairs: TurnPair[];
}

/**
 * Pairs a conversation's turns, session by session: a turn opens a pair as the user message, and the next turn
 * answers it when the other speaker says it. When the same speaker talks again (or the session ends), the user
 * message stands alone and the model answers nothing, so every turn is one message and at most one memory.
 */
export function pairTurns(turns: readonly TurnMemory[]): SessionPairs[] {
  const sessions: SessionPairs[] = [];
  for (let index = 0; index < turns.length; ) {
    const user = turns[index] as TurnMemory;
    const next = turns[index + 1];
    const answer =
      next !== undefined && next.session === user.session && next.speaker !== user.speaker ? next : undefined;
    let current = sessions.at(-1);
    if (current === undefined || current.session !== user.session) {
      current = { session: user.session, pairs: [] };
      sessions.push(current);
    }
    current.pairs.push({ user, answer });
    index += answer === undefined ? 1 : 2;
  }
  return sessions;
}
