import { claimed, type Found } from './query-spans.js';
import type { TimeOrder } from './time-window.js';

// The words of a query that ask for an end of the timeline, for a recent stretch, or when (`resolveQueryTime`).

/** Words asking for the oldest: "first", "earliest", "originally". */
export const OLDEST = [
  /\b(?:earliest|originally|initially|oldest|at\s+first|at\s+the\s+(?:start|beginning)|in\s+the\s+beginning)\b/gi,
  /\b(?:for\s+the\s+)?first\s+time\b/gi,
  // "first" orders when it says when ("the first thing", "did I first", "she first"), not in "first aid" or "the
  // first half".
  /(?<=\b(?:the|my|our|your|his|her|their|its|i|we|you|he|she|they)\s+)first\b(?!\s+(?:half|quarter|part))/gi,
  /(?<=\b(?:did|do|does|have|has|had|was|were)\s+(?:[\p{L}\p{N}'-]+\s+){1,3})first\b(?!\s+(?:half|quarter|part))/giu,
];
/** Words asking for the newest: "latest", "most recent", "last time", "my last trip". */
export const NEWEST = [
  /\b(?:latest|newest|most\s+recent(?:ly)?|last\s+time)\b/gi,
  // "the last thing", "my last trip": the newest; "last week" is a window, claimed before this runs.
  /(?<=\b(?:the|my|our|your|his|her|their|its)\s+)last\b/gi,
];
/**
 * Words of the present tense: "now", "currently", "these days", "still". They say the question is about what holds,
 * which is how people ask about any fact ("what camera am I shooting with now?" asks what camera I use), not which of
 * several mentions came last: read as an order, they would put any newer memory sharing a word with the question
 * above the one that answers it. They are not searched (they say when, not what) and ask for no order; a value
 * that replaced another is served above it by the update rules, which know the two are the same claim.
 */
export const PRESENT = [
  /\b(?:nowadays|these\s+days|currently|current|right\s+now|at\s+the\s+moment|anymore|still|now)\b/gi,
];
/**
 * "recently", "lately": the last 30 days. The words name no length; a month back from now is what they mean in most
 * speech, and a window only narrows where on-topic memories are in it (otherwise the ranking stands).
 */
export const RECENT = /\b(?:recently|lately|of\s+late)\b/gi;
/** The days "recently" reaches back. */
export const RECENT_DAYS = 30;
/**
 * A question whose answer is a time: it begins with when / how long / what date..., or asks "when did|was|is ...".
 * A "when" clause ("what do I eat when I'm sick") does not ask one.
 */
export const ASKS_WHEN =
  /^\W*(?:(?:so|and|but|hey|ok|okay|remind\s+me|tell\s+me|do\s+you\s+(?:know|remember)|can\s+you\s+tell\s+me)\W+)*(?:when|how\s+long|since\s+when|(?:what|which)\s+(?:time|date|day|month|year))\b|\bwhen\s+(?:did|was|were|is|are|will|do|does|have|has|had)\b/i;

/** Claims every match of the patterns not yet claimed, as asking for `order` (null: a time word asking for none). */
export function claimAll(query: string, patterns: readonly RegExp[], order: TimeOrder | null, found: Found[]): void {
  for (const pattern of patterns)
    for (const match of query.matchAll(pattern)) {
      const end = match.index + match[0].length;
      if (!claimed(found, match.index, end))
        found.push(order === null ? { start: match.index, end } : { start: match.index, end, order });
    }
}
