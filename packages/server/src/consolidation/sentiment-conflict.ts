import { type Clause, clausesOf, speakerLabel } from './clause-tokens.js';
import { HEDGES } from './frame-words.js';
import { subjectOf } from './functional-frames.js';
import { foldWord } from './statement-facts.js';

/** A subject's liking or disliking of one thing, present or past. */
interface Sentiment {
  subject: string;
  /** The object's words, folded and sorted, for comparing. */
  object: string;
  /** The object as written (less fillers), for explaining. */
  objectText: string;
  polarity: 1 | -1;
  past: boolean;
}

/** Two statements in which one subject likes, then dislikes (or the reverse), the same thing. */
export interface SentimentConflict {
  subject: string;
  object: string;
  older: 'likes' | 'dislikes';
  newer: 'likes' | 'dislikes';
}

/**
 * Verbs of liking and disliking (general English, closed): their polarity and whether the form is past. "stand" counts
 * only negated ("can't stand"); "a fan of" only after "be".
 */
const VERBS: ReadonlyMap<string, { polarity: 1 | -1; past: boolean }> = new Map(
  [
    ['love loves like likes enjoy enjoys adore adores fan', 1, false],
    ['loved liked enjoyed adored', 1, true],
    ['hate hates dislike dislikes detest detests loathe loathes despise despises avoid avoids stand', -1, false],
    ['hated disliked detested loathed despised avoided', -1, true],
  ].flatMap(([forms, polarity, past]) =>
    String(forms)
      .split(' ')
      .map((form) => [form, { polarity: polarity as 1 | -1, past: past as boolean }] as const),
  ),
);
/** Words between a subject and its verb of liking: auxiliaries, negation and intensifiers. */
const BETWEEN = new Set(
  "do does did not can cannot could really absolutely totally just actually truly genuinely honestly 'm 're is are am a big huge massive".split(
    ' ',
  ),
);
const NEGATIONS = new Set(['not', 'cannot', 'never']);
/** Words of an object that name nothing of their own. */
const OBJECT_FILLERS = new Set(
  'the a an my our your his her their this that these those of anymore so much very all at really lot lots'.split(' '),
);
const OBJECT_ENDS = new Set('and but because while whereas although though so which who when since if'.split(' '));
const PRONOUN_OBJECTS = new Set(['it', 'them', 'that', 'this', 'him', 'her', 'those', 'these']);
const MAX_OBJECT_WORDS = 5;

function sentimentOf({ tokens, question }: Clause): Sentiment | null {
  const lower = tokens.map((token) => token.lower);
  if (question || lower.some((word) => HEDGES.has(word))) return null;
  const verbAt = lower.findIndex((word) => VERBS.has(word));
  if (verbAt < 1) return null;
  const verb = VERBS.get(lower[verbAt] ?? '');
  let start = verbAt;
  while (start > 0 && BETWEEN.has(lower[start - 1] ?? '')) start -= 1;
  const between = lower.slice(start, verbAt);
  const negated = between.some((word) => NEGATIONS.has(word));
  const word = lower[verbAt];
  if (verb === undefined || (word === 'stand' && !negated)) return null;
  if (word === 'fan' && lower[verbAt + 1] !== 'of') return null;
  // "doesn't like" dislikes; "doesn't hate" says nothing either way.
  const polarity = word === 'stand' ? -1 : negated ? (verb.polarity === 1 ? -1 : null) : verb.polarity;
  if (polarity === null) return null;
  const subject = subjectOf(tokens.slice(0, start));
  if (subject === null) return null;
  const after = lower.slice(verbAt + (word === 'fan' ? 2 : 1));
  // The object runs to the next clause: "running in the rain" and "running" are two things.
  const end = after.findIndex((other) => OBJECT_ENDS.has(other));
  const raw = tokens.slice(verbAt + (word === 'fan' ? 2 : 1)).map((token) => token.raw);
  const kept = (end === -1 ? after : after.slice(0, end)).flatMap((other, index) =>
    OBJECT_FILLERS.has(other) ? [] : [{ lower: other, raw: raw[index] ?? other }],
  );
  const object = kept.map((entry) => entry.lower);
  if (object.length === 0 || object.length > MAX_OBJECT_WORDS || object.some((other) => PRONOUN_OBJECTS.has(other)))
    return null;
  const past = verb.past || between.includes('did') || between.includes('could');
  const objectText = kept.map((entry) => entry.raw).join(' ');
  return { subject: subject.key, object: object.map(foldWord).sort().join(' '), objectText, polarity, past };
}

/** A text's sentiments, their subjects under its speaker's label ("Caroline: I love jazz" is Caroline's). */
function sentimentsOf(text: string): Sentiment[] {
  const speaker = speakerLabel(text);
  return clausesOf(text).flatMap((clause) => {
    const sentiment = sentimentOf(clause);
    if (sentiment === null) return [];
    return [speaker === '' ? sentiment : { ...sentiment, subject: `${speaker}: ${sentiment.subject}` }];
  });
}

/**
 * Whether one subject likes, in one statement, what it dislikes in the other, of the very same object: "Hannah loves
 * coriander." / "Hannah can't stand coriander.", "I enjoy jazz." / "I don't like jazz.". Liking is love, like,
 * enjoy, adore, "a fan of"; disliking is hate, dislike, detest, loathe, despise, avoid, "can't stand", or a negated
 * liking. The objects must be the same words (less fillers), the subjects the same, the tenses the same ("I loved
 * sushi as a kid" beside "I hate sushi" is a change, both true); hedged clauses ("I'd love", "used to") and objects
 * that are pronouns ("it") say nothing. "I love dogs" / "I hate small dogs" are two facts.
 */
export function sentimentConflict(olderText: string, newerText: string): SentimentConflict | null {
  const older = sentimentsOf(olderText);
  if (older.length === 0) return null;
  const newer = sentimentsOf(newerText);
  const name = (polarity: 1 | -1) => (polarity === 1 ? 'likes' : 'dislikes');
  for (const before of older)
    for (const after of newer)
      if (
        before.subject === after.subject &&
        before.object === after.object &&
        before.past === after.past &&
        before.polarity !== after.polarity
      )
        return {
          subject: before.subject,
          object: after.objectText,
          older: name(before.polarity),
          newer: name(after.polarity),
        };
  return null;
}
