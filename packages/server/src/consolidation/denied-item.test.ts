import { describe, expect, it } from 'vitest';
import { conflictInOtherWords } from './conflict-in-other-words.js';
import { deniedItemConflict } from './denied-item.js';
import { readFacts } from './statement-facts.js';
import { canonWord } from './word-relations.js';

describe('deniedItemConflict', () => {
  it.each([
    ['Our CI runs on Jenkins.', 'Our CI runs on GitHub Actions, not Jenkins.', 'jenkins'],
    ['The invoices are sent by post.', 'Invoices go out by email, not post.', 'post'],
    ['The wiki is hosted on Confluence.', 'The wiki is hosted on Notion, no Confluence.', 'confluence'],
    ['Builds are signed with the release key, not the dev key.', 'Builds are signed with the dev key.', 'dev'],
  ])('finds an item one statement denies and the other states: %s / %s', (older, newer, item) => {
    expect(deniedItemConflict(older, newer)?.[0]).toBe(canonWord(item));
    expect(conflictInOtherWords(older, newer)).toMatchObject({ kind: 'negated' });
  });

  it.each([
    // Both deny the item: they agree.
    ["I don't like being called Jim.", 'Call me James, not Jim.'],
    // Only the denied word is shared: two subjects.
    ['Jim is a nurse.', 'Call me James, not Jim.'],
    // A denied value is a value, not an item (statement-facts.ts, negatesValue).
    ['The trip is two weeks.', 'The trip is two weeks, not three.'],
    // Another subject in the same frame.
    ['The frontend is hosted on Vercel.', 'The backend is hosted on Fly, not Vercel.'],
    // A question denies nothing.
    ['The wiki is hosted on Confluence.', 'Is the wiki on Notion, not Confluence?'],
    // A whole clause after "not" is no item.
    ['We deploy on Fridays.', 'We deploy on Fridays, not because we like it but because of the release train.'],
  ])('finds none: %s / %s', (older, newer) => {
    expect(deniedItemConflict(older, newer)).toBeNull();
  });

  it('reads a present passive as a standing state, not a past event', () => {
    expect(readFacts('The API is versioned in the URL path.').pastEvent).toBe(false);
    expect(readFacts('Bins are usually collected on Tuesdays.').pastEvent).toBe(false);
    expect(readFacts('The API was versioned in the URL path.').pastEvent).toBe(true);
    expect(readFacts('We versioned the API last year.').pastEvent).toBe(true);
  });
});
