/** How a memory's subject key was found (DESIGN 5), from most to least explicit. */
export type SubjectKeySource = 'category' | 'prefix' | 'first_words';

/** A memory's consolidation subject: the normalised key and where it came from. */
export interface SubjectKey {
  key: string;
  source: SubjectKeySource;
}

/** Words of the first line used when it has no `subject:` prefix (DESIGN 5). */
const FIRST_WORDS = 6;
/** A prefix longer than this is a sentence with a colon in it, not a subject. */
const MAX_PREFIX_LENGTH = 80;

/** NFKC, lower case, punctuation folded to spaces, whitespace collapsed. */
export function normaliseSubject(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The subject key of a memory (DESIGN 5): its category; else the first line's text before `:`; else the first
 * line's first six words; normalised. Memories of one (projectId, userId, type) sharing a key state the same
 * subject, so the newest of them is the current truth.
 */
export function subjectKey(content: string, category: string | null): SubjectKey {
  const fromCategory = category === null ? '' : normaliseSubject(category);
  if (fromCategory !== '') return { key: fromCategory, source: 'category' };
  const firstLine = content.split('\n').find((line) => line.trim() !== '') ?? '';
  const colon = firstLine.search(/:(?!\/\/)/);
  if (colon > 0 && colon <= MAX_PREFIX_LENGTH) {
    const prefix = normaliseSubject(firstLine.slice(0, colon));
    if (prefix !== '') return { key: prefix, source: 'prefix' };
  }
  const words = normaliseSubject(firstLine).split(' ').filter(Boolean).slice(0, FIRST_WORDS);
  return { key: words.join(' '), source: 'first_words' };
}
