import { wordsOf } from './fts-query.js';

/**
 * Names of the same thing that share no word: well-known abbreviations, short names and spellings of technical
 * terms. A query term found here also matches the other names of its group ("golang" finds "We write the backend in
 * Go", "k8s" finds "Kubernetes", "postgres" finds "PostgreSQL"), whatever the tenant holds, as the same thing under two
 * names is the same evidence. Why a fixed list is acceptable here: stemming and prefixes cannot relate "k8s" to
 * "Kubernetes" or "JS" to "JavaScript", and no statistic of one tenant can; developers' memories are full of these
 * names; the list is small, reviewed and only adds alternatives (every query word is still matched as written, and
 * BM25 weighs each alternative by its own rarity in the tenant). It keeps to names with one meaning among developers:
 * no "TF" (Terraform or TensorFlow), no "C#" or "C++" (the index reads them as "c"), no everyday words as groups of
 * their own ("node" and "react" have other meanings; "Node.js" is matched as the phrase "node js"). A multi-word name
 * is matched as a phrase (its words adjacent, in order).
 */
const GROUPS: readonly string[] = [
  'go | golang',
  'kubernetes | k8s | kube',
  'javascript | js | ecmascript',
  'typescript | ts',
  'postgresql | postgres | psql | pg',
  'python | py',
  'nodejs | node js',
  'nextjs | next js',
  'vuejs | vue js',
  'mongodb | mongo',
  'elasticsearch | elastic search',
  'github | gh',
  'aws | amazon web services',
  'gcp | google cloud platform',
  'macos | osx | mac os',
  'vscode | vs code | visual studio code',
  'ai | artificial intelligence',
  'ml | machine learning',
  'llm | large language model',
  'ui | user interface',
  'ux | user experience',
  'qa | quality assurance',
  'ci | continuous integration',
  'db | database',
  'pr | pull request',
  'repo | repository',
  'env | environment',
  'config | configuration',
  'auth | authentication',
  'docs | documentation',
  'prod | production',
  'infra | infrastructure',
  'email | e mail',
  'wifi | wi fi',
  'ok | okay',
];

/** Each name (its words joined by a space, as `wordsOf` reads them) -> the other names of its groups. */
const ALIASES: ReadonlyMap<string, readonly string[]> = (() => {
  const aliases = new Map<string, string[]>();
  for (const group of GROUPS) {
    const names = group.split('|').map((name) => [...wordsOf(name)].join(' '));
    for (const name of names)
      aliases.set(name, [...(aliases.get(name) ?? []), ...names.filter((other) => other !== name)]);
  }
  return aliases;
})();

/** The other names of a query term (lower-cased, a single word): words or space-separated phrases; none when unknown. */
export function aliasesOf(term: string): readonly string[] {
  return ALIASES.get(term) ?? [];
}
