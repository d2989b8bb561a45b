import { type Frame, readFrames } from './functional-frames.js';
import { canonWord, foldWord } from './word-relations.js';

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
  // Two institutions named alike share their head ("Kyoto University" / "Osaka University"): it names the kind.
  const kind = left.relation === 'graduated from' && sameKind(left, right) ? foldWord(head(left)) : '';
  if ([...left.valueWords].some((word) => word !== kind && right.valueWords.has(word))) return true;
  return initialsOf(left, right) || initialsOf(right, left);
}

/** A subject's words with synonyms and clippings folded ("the repo" / "the repository", "grandma" / "grandmother"). */
const subjectKey = (frame: Frame) => frame.subject.split(' ').map(canonWord).join(' ');

const sameSlot = (left: Frame, right: Frame) =>
  left.relation === right.relation && subjectKey(left) === subjectKey(right) && left.when === right.when;

/** The last word of a value ("Kyoto University" -> "university"): what kind of place or thing it names. */
const head = (frame: Frame) => frame.value.split(/\s+/).at(-1)?.toLowerCase() ?? '';

/**
 * Whether two values are of one kind where the relation needs it: one graduates from a school and from a
 * university, so only two institutions named alike ("Kyoto University" / "Osaka University") exclude each other.
 */
function sameKind(left: Frame, right: Frame): boolean {
  if (left.relation !== 'graduated from') return true;
  return left.value.includes(' ') && right.value.includes(' ') && head(left) === head(right);
}

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
      if (!sameSlot(before, after) || sameValue(before, after) || !sameKind(before, after)) continue;
      const agreed =
        older.some((frame) => sameSlot(frame, after) && sameValue(frame, after)) ||
        newer.some((frame) => sameSlot(frame, before) && sameValue(frame, before));
      if (agreed) continue;
      return { relation: before.relation, subject: before.subject, older: before.value, newer: after.value };
    }
  }
  return null;
}
