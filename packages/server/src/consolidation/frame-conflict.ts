import { type Frame, readFrames } from './functional-frames.js';

/** Two single-valued frames of one subject with values that have nothing in common. */
export interface FrameConflict {
  relation: string;
  subject: string;
  older: string;
  newer: string;
}

/** "AWS" and "Amazon Web Services", "NYC" and "New York City": one value written as its initials. */
function initialsOf(value: Frame, other: Frame): boolean {
  const words = other.value.split(/\s+/).filter((word) => /^\p{Lu}/u.test(word));
  return (
    words.length >= 2 &&
    words
      .map((word) => word[0])
      .join('')
      .toLowerCase() === value.value.toLowerCase()
  );
}

function sameValue(left: Frame, right: Frame): boolean {
  if ([...left.valueWords].some((word) => right.valueWords.has(word))) return true;
  return initialsOf(left, right) || initialsOf(right, left);
}

const sameSlot = (left: Frame, right: Frame) =>
  left.relation === right.relation && left.subject === right.subject && left.when === right.when;

/**
 * Whether two statements give one subject two values of a relation it holds one value of at a time
 * (functional-frames.ts): "My sister lives in Denver." / "My sister moved to Portland.", "The summit is in Oslo." /
 * "The summit is being held in Bergen.". The subject must be the same words, the relation of one class, the time
 * words the same, and the values must share no word (nor be one the initials of the other); a statement that also
 * gives the other's value (in another clause) is no conflict. Different subjects ("my brother"), many-valued
 * relations ("visited", "likes") and past or hedged clauses ("used to live in", "might move to") never conflict.
 */
export function frameConflict(olderText: string, newerText: string): FrameConflict | null {
  const older = readFrames(olderText);
  if (older.length === 0) return null;
  const newer = readFrames(newerText);
  for (const before of older) {
    for (const after of newer) {
      if (!sameSlot(before, after) || sameValue(before, after)) continue;
      const agreed =
        older.some((frame) => sameSlot(frame, after) && sameValue(frame, after)) ||
        newer.some((frame) => sameSlot(frame, before) && sameValue(frame, before));
      if (agreed) continue;
      return { relation: before.relation, subject: before.subject, older: before.value, newer: after.value };
    }
  }
  return null;
}
