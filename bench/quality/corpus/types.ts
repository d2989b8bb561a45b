/** The life areas the corpus covers; fillers are drawn from areas other than the case's own. */
export const DOMAINS = [
  'work',
  'engineering',
  'personal',
  'health',
  'travel',
  'food',
  'finance',
  'family',
  'hobbies',
  'tools',
  'schedule',
  'preferences',
  'home',
  'pets',
  'education',
] as const;
export type Domain = (typeof DOMAINS)[number];

/** The behaviours scored on two statements of one case. */
export const PAIR_BEHAVIOURS = ['duplicate', 'paraphrase', 'update', 'contradiction', 'lookalike'] as const;
export type PairBehaviour = (typeof PAIR_BEHAVIOURS)[number];

/** Every behaviour, in report order. */
export const BEHAVIOURS = [...PAIR_BEHAVIOURS, 'time'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

/**
 * Two statements said at two times (`first` before `second`, with an older `occurredAt`) and a question a user
 * would ask about them.
 */
export interface PairCase {
  id: string;
  behaviour: PairBehaviour;
  domain: Domain;
  first: string;
  second: string;
  query: string;
}

/** A pair case as written in a corpus file: domain, first statement, second statement, query. */
export type PairRow = readonly [Domain, string, string, string];

/** Numbers the rows of one behaviour into cases: `<prefix>-001`, `<prefix>-002`, ... */
export function pairCases(behaviour: PairBehaviour, prefix: string, rows: readonly PairRow[]): PairCase[] {
  return rows.map(([domain, first, second, query], index) => ({
    id: `${prefix}-${String(index + 1).padStart(3, '0')}`,
    behaviour,
    domain,
    first,
    second,
    query,
  }));
}
