/**
 * The closed word lists of single-valued frames (functional-frames.ts): general English, small on purpose. A phrase
 * missing here costs a missed conflict, never a false one.
 */

/**
 * Relations one subject holds one value of at a time, by class: two statements of one class about one subject with
 * two different values cannot both be true now. Each phrase is the words after the verb "be" (or the verb itself),
 * lower-cased; `be` marks a phrase that needs a form of "be" before it ("is based in"). Many-valued relations
 * (likes, visited, speaks, owns, works on, runs on, is on, has a friend named) are left out on purpose.
 */
export const RELATION_CLASSES: ReadonlyArray<{ relation: string; phrases: readonly string[] }> = [
  {
    relation: 'lives in',
    phrases: [
      'lives in',
      'live in',
      'living in',
      'resides in',
      'reside in',
      'be based in',
      'be located in',
      'be headquartered in',
      'moved to',
      'relocated to',
    ],
  },
  {
    relation: 'takes place in',
    phrases: ['be in', 'be held in', 'be held at', 'takes place in', 'take place in', 'taking place in'],
  },
  // A thing that "lives on" a platform is hosted there ("the repository lives on GitHub").
  {
    relation: 'is hosted on',
    phrases: ['be hosted on', 'be hosted by', 'be hosted at', 'be hosted with', 'lives on', 'live on', 'living on'],
  },
  {
    relation: 'works at',
    phrases: [
      'works at',
      'work at',
      'working at',
      'works for',
      'work for',
      'working for',
      'be employed at',
      'be employed by',
    ],
  },
  { relation: 'reports to', phrases: ['reports to', 'report to', 'reporting to', 'be managed by'] },
  { relation: 'is written in', phrases: ['be written in', 'be implemented in'] },
  { relation: 'is married to', phrases: ['be married to', 'be engaged to'] },
  // Where one's degree is from: two institutions of one kind ("... University") for one degree cannot both be.
  {
    relation: 'graduated from',
    phrases: [
      'graduated from',
      ...['got', 'earned', 'received', 'took'].flatMap((verb) =>
        ['his', 'her', 'their', 'my', 'our', 'your', 'a', 'the'].map((owner) => `${verb} ${owner} degree from`),
      ),
    ],
  },
  { relation: 'is called', phrases: ['be called', 'be named'] },
  { relation: 'is', phrases: ['be'] },
];

/**
 * Levels of a degree: one person may hold a bachelor's from one place and a master's from another, so a clause that
 * names a level states no single value of "graduated from".
 */
export const DEGREE_LEVELS: ReadonlySet<string> = new Set(
  "bachelor bachelor's bachelors master master's masters phd doctorate mba ba bsc ma msc undergraduate postgraduate diploma".split(
    ' ',
  ),
);

/** Nouns that name the seat of an organisation: "Acme's headquarters are in Oslo" says where Acme is based. */
export const SEAT_NOUNS: ReadonlySet<string> = new Set(['headquarters', 'hq']);

/** Forms of "be", with the auxiliaries that may come before them ("will be", "is being", "has been"). */
export const BE_FORMS: ReadonlySet<string> = new Set("is are am 's 're 'm be being been will".split(' '));

/**
 * Past forms of "be" and the perfect: a statement of the past or an experience does not undo one of the present
 * ("was based in", "has been in"). Past forms of the other relations ("lived in") are not listed, so never match;
 * "moved to" and "relocated to" are, as they state where one is now.
 */
export const PAST_BE: ReadonlySet<string> = new Set(['was', 'were', 'had', 'has', 'have', "'ve"]);

/** Words after which a subject is a definite description: one thing, known to both speakers. */
export const DEFINITE: ReadonlySet<string> = new Set('the my our your his her their this'.split(' '));

/** The speaker as a subject. Third-person pronouns are left out: "he" in two memories may be two people. */
export const SPEAKERS: ReadonlySet<string> = new Set(['i', 'we']);

/**
 * Nouns of which one has many at once (friends, colleagues, children, pets): "my friend is Sam" and "my friend is
 * Jo" are both true, so a plain "is" of such a subject is not single-valued.
 */
export const MANY_INSTANCE_NOUNS: ReadonlySet<string> = new Set(
  'friend friends neighbour neighbor neighbours neighbors colleague colleagues coworker coworkers cousin cousins sibling siblings brother brothers sister sisters child children kid kids son sons daughter daughters aunt aunts uncle uncles nephew nephews niece nieces grandchild grandchildren classmate classmates teammate teammates client clients customer customers student students pet pets dog dogs cat cats guest guests member members user users'.split(
    ' ',
  ),
);

/**
 * People: where a person "is" ("my wife is in Rome") changes from day to day, unlike where an event or a thing is
 * ("the summit is in Oslo"), so a plain "is in" of a person states no lasting value.
 */
export const PERSON_NOUNS: ReadonlySet<string> = new Set([
  ...MANY_INSTANCE_NOUNS,
  ...'wife husband partner mom mum dad mother father boss manager parents grandma grandpa grandmother grandfather boyfriend girlfriend fiance fiancee baby family roommate flatmate'.split(
    ' ',
  ),
]);

/** Words that make a subject name one chosen value ("my favourite food", "our main provider"). */
export const SINGLE_CHOICE: ReadonlySet<string> = new Set(
  'favourite favorite preferred main primary usual default current only'.split(' '),
);

/**
 * Words that make a clause uncertain, hypothetical, additive or partial: such a clause states no single current value
 * ("might move to", "also lives in", "if the talk is in", "sometimes works from").
 */
export const HEDGES: ReadonlySet<string> = new Set(
  'might may could would should maybe perhaps probably possibly if unless whether think thinks thought guess hope hopes plan plans planning want wants wanted considering also too sometimes occasionally part-time partly either or both used usually'.split(
    ' ',
  ),
);

/** Words that place a statement in time: two statements placed at different times are both true. */
export const TIME_WORDS: ReadonlySet<string> = new Set(
  'today tonight tomorrow yesterday week weeks weekend month months year years next last ago until since summer winter spring autumn fall season semester before after during'.split(
    ' ',
  ),
);

/** Words that end a value or start another clause. */
export const CLAUSE_BREAKS: ReadonlySet<string> = new Set(
  'and but because while whereas although though so which who where when since until with for from by near outside at in on to of about over under into'.split(
    ' ',
  ),
);

/** Relative words: a subject holding one names something else ("the friend who lives in"). */
export const RELATIVE_WORDS: ReadonlySet<string> = new Set('who which that where whose whom'.split(' '));
