/**
 * The closed word lists statement parsing uses (subject-key.ts). Small on purpose: a word missing here makes a
 * statement fall back to the stricter first-words subject, so a gap costs a missed conflict, never a lost memory.
 */

/** A relation (verb) of a statement: its canonical form, and whether one subject holds one value of it at a time. */
export interface Relation {
  canonical: string;
  singleValued: boolean;
  /** An auxiliary (do, will, should, has, is...) hands over to a main verb that follows it. */
  auxiliary: boolean;
}

const relations = new Map<string, Relation>();
function define(forms: string, flags: { singleValued: boolean; auxiliary?: boolean }) {
  const [canonical = '', ...rest] = forms.split(' ');
  const relation = { canonical, singleValued: flags.singleValued, auxiliary: flags.auxiliary ?? false };
  for (const form of [canonical, ...rest]) relations.set(form, relation);
}
// One value at a time: a new statement replaces the old one (where one lives, when deploys happen, what one prefers).
define("is are was were am be been being isn't aren't wasn't weren't", { singleValued: true, auxiliary: true });
for (const forms of [
  'prefers prefer preferred',
  'lives live lived',
  'works work worked',
  'happens happen happened',
  'goes go went',
  'defaults default defaulted',
  'costs cost',
  'expires expire expired',
  'starts start started',
  'ends end ended',
  'meets meet met',
  'points point pointed',
  'belongs belong belonged',
  'means mean meant',
  'equals equal',
  'moves move moved',
  'switches switch switched',
  'chooses choose chose chosen',
])
  define(forms, { singleValued: true });
// Many values at once: "likes tea" does not undo "likes hiking"; only a value of one kind or a role ("for Y") does.
for (const forms of [
  'uses use used using',
  'likes like liked',
  'loves love loved',
  'hates hate hated',
  'dislikes dislike disliked',
  'wants want wanted',
  'needs need needed',
  'runs run ran',
  'speaks speak spoke',
  'eats eat ate',
  'drinks drink drank',
  'owns own owned',
  'supports support supported',
  'contains contain contained',
  'requires require required',
  'stores store stored',
  'keeps keep kept',
  'takes take took taken',
  'gets get got',
  'depends depend depended',
])
  define(forms, { singleValued: false });
define("has have had hasn't haven't hadn't", { singleValued: false, auxiliary: true });
for (const forms of [
  "does do did don't doesn't didn't",
  "will won't",
  "would wouldn't",
  "should shouldn't",
  "must mustn't",
  "can can't cannot",
  "could couldn't",
  'may',
  'might',
  'shall',
])
  define(forms, { singleValued: true, auxiliary: true });

/** The relation a word is a form of, if any. */
export function relationOf(word: string): Relation | undefined {
  return relations.get(word);
}

/** Determiners, possessives, adverbs of time and frequency, negation: they change neither subject nor slot. */
export const FILLERS: ReadonlySet<string> = new Set(
  'a an the our my your their his her its this that these those now currently still also always never usually often sometimes generally typically really actually just not no longer'.split(
    ' ',
  ),
);

/** Words after which the next word is a noun, not a verb ("the store", "our plan"). */
export const DETERMINERS: ReadonlySet<string> = new Set(
  'a an the our my your their his her its this that these those'.split(' '),
);

/** Label heads that name the kind of statement ("Decision:", "Team rule:"), not its subject. */
export const KIND_LABEL_HEADS: ReadonlySet<string> = new Set(
  'decision decisions fact facts rule rules note notes preference preferences todo reminder reminders summary update updates info fyi important context observation observations insight insights lesson lessons learning learnings memory memories tip tips warning idea ideas policy policies convention conventions constraint constraints requirement requirements skill skills procedure'.split(
    ' ',
  ),
);

/** Opening words of a question: a question states no value. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set('how what where when why who whom whose which'.split(' '));

/** Prepositions that name the role a many-valued relation's value fills: "use X for installs", "use X as the cache". */
export const ROLE_PREPOSITIONS: ReadonlySet<string> = new Set(['for', 'as']);

const WEEKDAYS = new Set(
  'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri sat sun weekday weekdays weekend weekends'.split(
    ' ',
  ),
);
const MONTHS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);
const COLOURS = new Set(
  'red orange yellow green blue purple violet pink brown black white grey gray silver gold teal navy'.split(' '),
);
/** Numbers spelled out ("two bedrooms", "three kids"); `one` is left out: it is a pronoun as often as a number. */
const NUMBER_WORDS = new Set(
  'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million dozen'.split(
    ' ',
  ),
);
const SWITCHES = new Set('on off true false yes no enabled disabled allowed forbidden required optional'.split(' '));

/**
 * The closed kind of a value word: `#` for anything with a digit (numbers, times, versions, sizes) or a spelled-out
 * number, weekday, month,
 * colour or switch; null for an open-class word. Two words of one kind are alternatives of one slot.
 */
export function kindOf(word: string): string | null {
  if (/\p{N}/u.test(word) || NUMBER_WORDS.has(word)) return '#';
  const singular = word.endsWith('s') ? word.slice(0, -1) : word;
  if (WEEKDAYS.has(word) || WEEKDAYS.has(singular)) return '<weekday>';
  if (MONTHS.has(word)) return '<month>';
  if (COLOURS.has(word)) return '<colour>';
  if (SWITCHES.has(word)) return '<switch>';
  return null;
}
