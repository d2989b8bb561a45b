/** One sentence of a message, with the paragraph it belongs to (a blank line starts a new one). */
export interface Sentence {
  text: string;
  paragraph: number;
}

// Pasted code and quoted text are material the user hands over, not something the user states.
const CODE_FENCE = /```[\s\S]*?(?:```|$)/g;
const QUOTED_LINE = /^[ \t]*>.*$/gm;
const LIST_MARKER = /^(?:[-*•+]|\d+[.)])\s+/;
const HEADING = /^#{1,6}\s+/;
const EMPHASIS = /\*\*|__|`/g;
// A full stop after these does not end the sentence.
const ABBREVIATION = /(?:\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|approx|incl|cf)|(?:^|\s)[A-Z])\.$/i;
const SENTENCE_END = /(?<=[.!?…。！？])\s+/;

function cleanLine(line: string): string {
  return line.trim().replace(LIST_MARKER, '').replace(HEADING, '').replace(EMPHASIS, '').trim();
}

/** The line's sentences: split after `.`, `!`, `?` followed by a space, except after an abbreviation. */
function lineSentences(line: string): string[] {
  const sentences: string[] = [];
  for (const piece of line.split(SENTENCE_END)) {
    const previous = sentences.at(-1);
    if (previous !== undefined && ABBREVIATION.test(previous)) sentences[sentences.length - 1] = `${previous} ${piece}`;
    else sentences.push(piece);
  }
  return sentences;
}

/**
 * The sentences of a chat message, in order. Fenced code and quoted lines are left out; a line break ends a
 * sentence (in a chat, Enter is deliberate: list items, one thought a line); list markers and markdown emphasis
 * are removed; curly apostrophes become straight ones.
 */
export function messageSentences(text: string): Sentence[] {
  const prose = text.replace(/[‘’]/g, "'").replace(CODE_FENCE, '\n\n').replace(QUOTED_LINE, '');
  return prose.split(/\n[ \t]*\n/).flatMap((block, paragraph) =>
    block
      .split('\n')
      .map(cleanLine)
      .flatMap(lineSentences)
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence !== '')
      .map((sentence) => ({ text: sentence, paragraph })),
  );
}

// Where a sentence may hold two clauses: a comma, semicolon, colon or dash between them (captured, to be kept).
const CLAUSE_BREAK = /((?<=[,;:])\s+|\s+[-–—]\s+)/;

/**
 * The sentence cut into clauses where a clause opens something new (`opensClause`: a question or a request after a
 * statement, "I moved to Berlin, can you suggest cafés?"); the other breaks stay inside their clause, as written.
 */
export function sentenceClauses(sentence: string, opensClause: (clause: string) => boolean): string[] {
  const [first = '', ...rest] = sentence.split(CLAUSE_BREAK);
  const clauses = [first];
  for (let index = 0; index + 1 < rest.length; index += 2) {
    const piece = rest[index + 1] ?? '';
    if (opensClause(piece)) clauses.push(piece);
    else clauses[clauses.length - 1] += `${rest[index]}${piece}`;
  }
  return clauses.map((clause) => clause.trim()).filter((clause) => clause !== '');
}

/** A regular expression group matching one of a comma-separated list of words and phrases (regex syntax allowed). */
export function oneOf(list: string): string {
  const phrases = list.split(',').map((phrase) => phrase.trim());
  return `(?:${phrases.filter((phrase) => phrase !== '').join('|')})`;
}

/** The words of a text, lower case; a contraction's ending is cut off ("I'm" gives "i"), except "n't". */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:'\p{L}+)?/gu) ?? []).map((word) =>
    word.replace(/'(?:s|re|m|ve|d|ll)$/, ''),
  );
}

/** The kept clauses, joined as sentences (a clause cut from its sentence gets a full stop), within `max` characters. */
export function joinSentences(sentences: readonly string[], max: number): string {
  let joined = '';
  for (const sentence of sentences) {
    const trimmed = sentence.replace(/\s*[,;–—-]+$/, '');
    const ended = /[.!?…:。！？]$/.test(trimmed) ? trimmed : `${trimmed}.`;
    const next = joined === '' ? ended : `${joined} ${ended}`;
    if (next.length > max) return joined === '' ? ended.slice(0, max) : joined;
    joined = next;
  }
  return joined;
}
