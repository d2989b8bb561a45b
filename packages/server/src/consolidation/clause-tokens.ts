import { KIND_LABEL_HEADS } from './statement-words.js';

/** A word as written and lower-cased, edge punctuation dropped. */
export interface Token {
  raw: string;
  lower: string;
}

/** A clause: its words, and whether its sentence is a question. */
export interface Clause {
  tokens: readonly Token[];
  question: boolean;
}

/** Contractions split off pronouns ("I'm" -> "I" "'m", "doesn't" -> "does" "not"); a name's "'s" stays (possessive). */
const PRONOUN_BE = /^(i|you|we|they|he|she|it|that|there)('m|'re|'s|'ve|'ll|'d)$/i;
const AUXILIARIES: Record<string, string> = { "'ll": 'will', "'d": 'would' };

function split(word: string): string[] {
  const pronoun = PRONOUN_BE.exec(word);
  if (pronoun !== null) {
    const auxiliary = (pronoun[2] ?? '').toLowerCase();
    return [pronoun[1] ?? '', AUXILIARIES[auxiliary] ?? auxiliary];
  }
  if (/^can't$/i.test(word)) return ['can', 'not'];
  if (/^won't$/i.test(word)) return ['will', 'not'];
  if (/n't$/i.test(word)) return [word.slice(0, -3), 'not'];
  return [word];
}

/**
 * A text's clauses, split at sentence and clause punctuation (`.`, `;`, `!`, `?`, `,`, `:`, dashes and brackets),
 * each a list of words with their case kept (a capital marks a name). Cheap: one pass over the text.
 */
export function clausesOf(text: string): Clause[] {
  const clauses: Clause[] = [];
  const sentences = text
    .normalize('NFKC')
    .replace(/\u2019/g, "'")
    .split(/(?<=[.!?])\s+|\n+/);
  for (const sentence of sentences) {
    const question = sentence.trim().endsWith('?');
    for (const part of sentence.split(/[;,:()]|\s[-\u2013\u2014]+\s|[.!?]+(?=\s|$)/)) {
      const tokens = part
        .split(/\s+/)
        .map((word) => word.replace(/^[^\p{L}\p{N}$]+|[^\p{L}\p{N}]+$/gu, ''))
        .filter((word) => word !== '')
        .flatMap(split)
        .map((raw) => ({ raw, lower: raw.toLowerCase() }));
      if (tokens.length > 0) clauses.push({ tokens, question });
    }
  }
  return clauses;
}

/** Whether a word is written as a name: a capital or a digit after its first letter, or a capital first ("AWS", "iPhone", "Denver"). */
export function looksLikeName(raw: string): boolean {
  return /^\p{Lu}/u.test(raw) || /^\p{Ll}+\p{Lu}/u.test(raw);
}

/**
 * Who says a text, when it opens with a label of one to four words ("Caroline: I live in Boston", a transcript turn):
 * the label, lower-cased; '' otherwise, or when the label names a kind of statement ("Decision:", "Note:"). Two
 * speakers' "I" are two people, so subjects are read under it.
 */
export function speakerLabel(text: string): string {
  const match = /^\s*([^:\n]{1,60}):\s/.exec(text);
  const label = match?.[1]?.trim().toLowerCase() ?? '';
  const words = label.split(/\s+/);
  if (label === '' || words.length > 4 || KIND_LABEL_HEADS.has(words.at(-1) ?? '')) return '';
  return label;
}
