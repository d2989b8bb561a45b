import type { SubjectKeySource } from '../store/consolidation-plan-rows.js';
import {
  DETERMINERS,
  FILLERS,
  KIND_LABEL_HEADS,
  kindOf,
  QUESTION_WORDS,
  ROLE_PREPOSITIONS,
  relationOf,
} from './statement-words.js';

/** A memory's consolidation subject: the normalised key and where it came from. */
export interface SubjectKey {
  key: string;
  source: SubjectKeySource;
}

/**
 * A memory's first line read as a statement. `clause`: subject, relation, value ("the office wifi password | is |
 * X"); `attribute`: an explicit `Subject: value` line whose label is the subject; `text`: neither (only its first
 * words are compared).
 */
export interface Statement extends SubjectKey {
  shape: 'clause' | 'attribute' | 'text';
  subject: readonly string[];
  singleValued: boolean;
  /** The words after the relation (for `text`, all words), fillers dropped: where the changed value is looked for. */
  value: readonly string[];
  /** The relation is in the perfect (`have been`, `has visited`): an experience, of which one has many. */
  perfect?: boolean;
  /** The relation is in the past tense (`worked`, `was`): said of the past, it does not undo a present statement. */
  past?: boolean;
}

/** Irregular past forms of relations (regular ones end in -ed). */
const PAST_RELATION_FORMS: ReadonlySet<string> = new Set(
  "was were wasn't weren't went had did didn't met ran ate drank spoke took got kept chose".split(' '),
);

/** Words of the first line used when it has no subject (docs/architecture.md#write-side-behaviour). */
const FIRST_WORDS = 6;
/** A prefix longer than this is a sentence with a colon in it, not a subject. */
const MAX_PREFIX_LENGTH = 80;
/** A relation further in than this is not the first verb of a subject: the line is read as text. */
const MAX_SUBJECT_WORDS = 6;
/** An attribute's value longer than this is a titled note ("Meeting notes: ..."), read as text under its title. */
const MAX_ATTRIBUTE_VALUE_WORDS = 8;

/** NFKC, lower case, punctuation folded to spaces, whitespace collapsed. */
export function normaliseSubject(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Words as written, lower-cased, edge punctuation dropped (`10:00`, `wi-fi` and `user's` stay whole). */
function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '');
}

const content = (list: readonly string[]) => list.filter((word) => !FILLERS.has(word));

/** The first verb of a clause and where it is, past auxiliaries to the main verb ("should never happen"). */
function findRelation(body: readonly string[]) {
  for (let index = 0; index < body.length && index <= MAX_SUBJECT_WORDS; index += 1) {
    const word = body[index] ?? '';
    let relation = relationOf(word);
    if (relation === undefined || DETERMINERS.has(body[index - 1] ?? '')) continue;
    // At the start an auxiliary opens a question ("Is it...?"), and an -s form is a noun ("Uses of X are...");
    // only a bare verb is a verb there: an imperative ("Use pnpm").
    if (index === 0 && relation.auxiliary) return undefined;
    if (index === 0 && word === relation.canonical) continue;
    let end = index + 1;
    let perfect = false;
    while (relation.auxiliary) {
      let next = end;
      while (FILLERS.has(body[next] ?? '')) next += 1;
      const main = relationOf(body[next] ?? '');
      if (main === undefined) break;
      if (relation.canonical === 'has') perfect = true;
      relation = main;
      end = next + 1;
    }
    const past = PAST_RELATION_FORMS.has(body[end - 1] ?? '') || /ed$/.test(body[end - 1] ?? '');
    return { index, end, relation, perfect, past };
  }
  return undefined;
}

/** A value with its closed-kind words abstracted (`#`, `<weekday>`...): what two values of one slot share. */
function valueShape(value: readonly string[]): string {
  return value.map((word) => kindOf(word) ?? word).join(' ');
}

/** A many-valued relation's key part: the role its value fills ("for installs"), else the value's shape. */
function manyValuedPart(value: readonly string[]): string {
  const role = value.findIndex((word, index) => index > 0 && ROLE_PREPOSITIONS.has(word));
  return role > 0 ? valueShape(value.slice(role)) : valueShape(value);
}

function clause(context: string, body: readonly string[], source: SubjectKeySource): Statement | undefined {
  if (QUESTION_WORDS.has(body[0] ?? '')) return undefined;
  const found = findRelation(body);
  if (found === undefined) return undefined;
  const subject = content(body.slice(0, found.index));
  const value = content(body.slice(found.end));
  const { canonical, singleValued } = found.relation;
  const about = [...subject, canonical, ...(singleValued ? [] : [manyValuedPart(value)])].join(' ').trim();
  const key = context === '' ? about : `${context}: ${about}`;
  return { key, source, shape: 'clause', subject, singleValued, value, perfect: found.perfect, past: found.past };
}

function text(context: string, body: readonly string[], source: SubjectKeySource): Statement {
  const opening = normaliseSubject(body.join(' ')).split(' ').filter(Boolean).slice(0, FIRST_WORDS).join(' ');
  const key = context === '' || opening === '' ? context || opening : `${context}: ${opening}`;
  return { key, source, shape: 'text', subject: [], singleValued: true, value: content(body) };
}

/**
 * Reads a memory's first line as a statement (docs/architecture.md#write-side-behaviour, revised so that unrelated memories sharing a label are never superseded). Two memories can only
 * state the same subject if they have the same key, so the key must name the subject itself, not a label or a
 * category alone (those hold many subjects: "Decision: the logo is blue" and "Decision: backups run at 2am").
 * - The category, and a `Label:` whose head names a kind of statement (Decision, Fact, Rule, Note...), are
 *   context: part of the key, never the whole of it; the subject is read from the text after them.
 * - Any other label is the subject when what follows is a bare value ("Deploy target: staging", "Standup time:
 *   9:30"); when what follows is a clause with its own subject and verb, the label is context too.
 * - A clause's subject is the words before its first verb (a closed list, statement-words.ts), fillers dropped;
 *   the key is context + subject + verb, and for many-valued verbs (uses, likes) also the role or shape of the value.
 * - Anything else is keyed by its first six words (under its context), as before.
 * Whether two same-key statements really conflict is same-claim.ts's question.
 */
export function readStatement(contentText: string, category: string | null): Statement {
  const fromCategory = category === null ? '' : normaliseSubject(category);
  const firstLine = contentText.split('\n').find((line) => line.trim() !== '') ?? '';
  const colon = firstLine.search(/:(?=\s|$)/);
  const label = colon > 0 && colon <= MAX_PREFIX_LENGTH ? normaliseSubject(firstLine.slice(0, colon)) : '';
  const body = words(label === '' ? firstLine : firstLine.slice(colon + 1));
  const source: SubjectKeySource = fromCategory !== '' ? 'category' : label !== '' ? 'prefix' : 'first_words';
  const context = [fromCategory, label].filter(Boolean).join(': ');
  const asClause = clause(context, body, source);
  if (asClause !== undefined) return asClause;
  const kindLabel = KIND_LABEL_HEADS.has(label.split(' ').at(-1) ?? '');
  if (label !== '' && !kindLabel && body.length <= MAX_ATTRIBUTE_VALUE_WORDS) {
    return { key: context, source, shape: 'attribute', subject: label.split(' '), singleValued: true, value: body };
  }
  return text(context, body, source);
}

/** The subject key of a memory (docs/architecture.md#write-side-behaviour): see `readStatement`. */
export function subjectKey(contentText: string, category: string | null): SubjectKey {
  const { key, source } = readStatement(contentText, category);
  return { key, source };
}
