/** Whitespace, full stops and exclamation marks at the end of a text (after NFKC: `．`, `！` and `…` are ASCII). */
const FINAL_PUNCTUATION = /[\s.!。]+$/u;

/**
 * The text two memories are compared by when deciding whether they are duplicates (`memories/add` answers the stored
 * memory instead of a second copy; consolidation merges exact duplicates). It folds only what never changes what a
 * sentence states: Unicode compatibility forms (NFKC: full-width letters, ligatures, no-break spaces), letter case,
 * runs of whitespace, and a final full stop or exclamation mark. Everything else counts, so two different facts
 * never compare equal: "Deploys on Friday." equals "deploys  on friday" and "DEPLOYS ON FRIDAY!", not "Deploys on
 * Friday?" (a question), "Deploys on Friday at 5pm" or "Déploie le vendredi". A text that is only punctuation is
 * compared as it is.
 *
 * @example
 * normalizeMemoryContent('  Deploys on\nFRIDAY. '); // 'deploys on friday'
 */
export function normalizeMemoryContent(content: string): string {
  const folded = content.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const unpunctuated = folded.replace(FINAL_PUNCTUATION, '');
  return unpunctuated === '' ? folded : unpunctuated;
}
