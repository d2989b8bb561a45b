/** An entity found in a memory's text: its normalised key, the surface form first seen, and how sure the rule is. */
export interface ExtractedEntity {
  key: string;
  label: string;
  confidence: number;
}

/** At most this many entities per memory; the most certain ones are kept. */
export const MAX_ENTITIES_PER_MEMORY = 24;

// Rule confidences: explicit syntax (backticks, URLs, paths, handles) is near-certain; capitalisation is a guess.
const CONFIDENCE = {
  backtick: 0.9,
  url: 0.9,
  email: 0.9,
  path: 0.9,
  handle: 0.85,
  snakeIdentifier: 0.8,
  multiWordName: 0.8,
  innerCapital: 0.7,
  acronym: 0.6,
  properNoun: 0.6,
} as const;

const SOURCE_EXTENSIONS =
  'ts|tsx|js|jsx|mjs|cjs|json|md|mdx|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sql|yml|yaml|toml|ini|sh|css|scss|html|vue|svelte|lock|env|txt|csv|xml|proto|graphql|tf';
const PATTERNS = {
  backtick: /`([^`\n]{1,80})`/g,
  url: /\bhttps?:\/\/[^\s<>"'`)\]]*[^\s<>"'`)\].,;:!?]/gi,
  email: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  handle: /(?<![\w@.])@[A-Za-z0-9_][A-Za-z0-9_-]{0,38}/g,
  slashed: /(?<![\w/:.])(?:~|\.{1,2})?\/?[\w.-]+(?:\/[\w.-]+)+\/?/g,
  fileName: new RegExp(`(?<![\\w/.-])[\\w-]+(?:\\.[\\w-]+)*\\.(?:${SOURCE_EXTENSIONS})\\b`, 'g'),
  snakeIdentifier: /\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/g,
  word: /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu,
} as const;

/** Capitalised words that open sentences or titles without naming anything. */
const COMMON_CAPITALISED = new Set(
  "a an and always any are as at be but by can do does don't each every for from had has have he her here his how i if in into is it its let make makes never no not note of on once only or our please remember she should so some than that the their then there these they this those to todo use using was we were what when where which while who why will with without would yes you your".split(
    ' ',
  ),
);

function normaliseKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

const FILE_EXTENSION = new RegExp(`\\.(?:${SOURCE_EXTENSIONS})$`, 'i');

/** A slashed token is a path when rooted (`/`, `./`, `../`, `~/`), has two or more slashes, or ends in a file name. */
function looksLikePath(token: string): boolean {
  const trimmed = token.replace(/[.]+$/, '').replace(/\/$/, '');
  return /^(?:~|\.{1,2})?\//.test(trimmed) || (trimmed.match(/\//g) ?? []).length >= 2 || FILE_EXTENSION.test(trimmed);
}

function cleanPath(path: string): string {
  return path.replace(/[.]+$/, '').replace(/^\.\//, '').replace(/\/$/, '');
}

/** Whether the text before `index` ends a sentence (or is empty), so a capital there proves nothing. */
function atSentenceStart(text: string, index: number): boolean {
  const before = text.slice(0, index).trimEnd();
  return before === '' || /[.!?:;\n\-*•("'“]$/.test(before) || /\n\s*$/.test(text.slice(0, index));
}

/**
 * Deterministic entity extraction (no model). Rules, in order:
 * 1. text in backticks; 2. URLs; 3. e-mail addresses; 4. `@handles`; 5. file paths (a `/`-separated token that is rooted,
 * has two or more slashes or ends in a file name; or a bare file name with a known source extension) and `paths`; 6. snake_case identifiers;
 * 7. runs of two or more capitalised words (leading sentence words such as "The" or "Always" dropped);
 * 8. words with an inner capital (`GitHub`, `useEffect`); 9. acronyms of two or more capitals (`JWT`);
 * 10. single capitalised words of three or more letters that do not open a sentence.
 * Keys are NFKC, lower-cased and whitespace-collapsed; each key keeps its highest confidence.
 */
export function extractEntities(content: string, paths: readonly string[] = []): ExtractedEntity[] {
  const found = new Map<string, ExtractedEntity>();
  const add = (surface: string, confidence: number) => {
    const label = surface.trim();
    const key = normaliseKey(label);
    if (key.length < 2 || key.length > 200) return;
    const existing = found.get(key);
    if (existing === undefined || existing.confidence < confidence) found.set(key, { key, label, confidence });
  };
  let rest = content;
  const take = (pattern: RegExp, confidence: number, clean: (match: RegExpExecArray) => string) => {
    rest = rest.replace(pattern, (...parts) => {
      const match = parts as unknown as RegExpExecArray;
      add(clean(match), confidence);
      return ' '.repeat(match[0].length);
    });
  };
  take(PATTERNS.backtick, CONFIDENCE.backtick, (match) => match[1] ?? '');
  take(PATTERNS.url, CONFIDENCE.url, (match) => match[0].replace(/\/$/, ''));
  take(PATTERNS.email, CONFIDENCE.email, (match) => match[0]);
  take(PATTERNS.handle, CONFIDENCE.handle, (match) => match[0]);
  take(PATTERNS.slashed, CONFIDENCE.path, (match) => (looksLikePath(match[0]) ? cleanPath(match[0]) : ''));
  take(PATTERNS.fileName, CONFIDENCE.path, (match) => match[0]);
  for (const path of paths) add(cleanPath(path), 1);
  take(PATTERNS.snakeIdentifier, CONFIDENCE.snakeIdentifier, (match) => match[0]);
  addCapitalisedNames(rest, add);
  return [...found.values()]
    .sort((left, right) => right.confidence - left.confidence)
    .slice(0, MAX_ENTITIES_PER_MEMORY);
}

function addCapitalisedNames(text: string, add: (surface: string, confidence: number) => void): void {
  const words = [...text.matchAll(PATTERNS.word)].map((match) => ({
    word: match[0].replace(/['’]s$/u, '').replace(/['’-]+$/u, ''),
    index: match.index ?? 0,
  }));
  let run: Array<{ word: string; index: number }> = [];
  const flush = () => {
    const leading = run[0];
    const names = leading !== undefined && COMMON_CAPITALISED.has(leading.word.toLowerCase()) ? run.slice(1) : run;
    if (names.length >= 2) add(names.map((entry) => entry.word).join(' '), CONFIDENCE.multiWordName);
    else if (names[0] !== undefined) addProperNoun(text, names[0], add);
    run = [];
  };
  for (const [position, entry] of words.entries()) {
    const previous = words[position - 1];
    const gap = previous === undefined ? '' : text.slice(previous.index + previous.word.length, entry.index);
    if (previous !== undefined && !/^['’s]*[ \t]+$/u.test(gap)) flush();
    addShapedWord(entry.word, add);
    if (/^\p{Lu}/u.test(entry.word)) run.push(entry);
    else flush();
  }
  flush();
}

/** Acronyms and inner-capital words name things wherever they stand. */
function addShapedWord(word: string, add: (surface: string, confidence: number) => void): void {
  if (/^\p{Lu}{2,}[\p{Lu}\p{N}]*$/u.test(word) && word.length <= 10) add(word, CONFIDENCE.acronym);
  else if (/\p{Ll}\p{Lu}/u.test(word)) add(word, CONFIDENCE.innerCapital);
}

/** A lone capitalised word is a name unless a sentence starts with it or it is a common word. */
function addProperNoun(
  text: string,
  entry: { word: string; index: number },
  add: (surface: string, confidence: number) => void,
): void {
  const plain = /^\p{Lu}\p{Ll}+$/u.test(entry.word);
  if (plain && entry.word.length >= 3 && !COMMON_CAPITALISED.has(entry.word.toLowerCase())) {
    if (!atSentenceStart(text, entry.index)) add(entry.word, CONFIDENCE.properNoun);
  }
}
