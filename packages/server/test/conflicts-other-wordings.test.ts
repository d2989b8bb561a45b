import { describe, expect, it } from 'vitest';
import { useConflictCases } from './conflict-cases.js';

// Issue 24: conflicts said in other words (synonyms of one relation, opposite states of one subject, an age, which
// way a thing faces) are paired at write time, and their look-alikes are not, through the HTTP API.

describe('conflicts in other wordings', () => {
  const cases = useConflictCases('other-wording');
  const { scope, add, context, pairs } = cases;

  it('pairs one subject in two opposite states and says which is newer', async () => {
    const user = scope();
    const older = await add('The plumbing invoice was paid.', user, '2026-03-02T10:00:00Z');
    const newer = await add('The invoice for the plumbing is still unpaid.', user, '2026-04-20T10:00:00Z');
    const bundle = await context('is the plumbing invoice paid?', user);
    expect(pairs(bundle)).toEqual([[older, newer]]);
    expect(bundle.conflicts?.[0]?.explanation).toContain(
      'two states that exclude each other ("paid" before, "unpaid" now)',
    );
    expect(bundle.conflicts?.[0]?.explanation).toContain(`${newer} is the newer one`);
  });

  it.each([
    ['The bus to Leeds leaves at 7:15.', 'The Leeds bus departs at 7:45.', 'when does the Leeds bus leave?'],
    ['My grandfather is 81.', 'Grandpa is 78 years old.', 'how old is grandpa, my grandfather?'],
    ['Our balcony faces west.', 'The balcony is east-facing.', 'which way does the balcony face?'],
    ['The startup is based in Lyon.', "The startup's headquarters are in Nantes.", 'where is the startup?'],
  ])('pairs a changed value said in other words: %s / %s', async (first, second, query) => {
    const user = scope();
    const older = await add(first, user, '2026-01-05T10:00:00Z');
    const newer = await add(second, user, '2026-02-05T10:00:00Z');
    expect(pairs(await context(query, user))).toEqual([[older, newer]]);
  });

  it('pairs an item one statement denies by contrast and the other states', async () => {
    const user = scope();
    const older = await add('The invoices are sent by post.', user, '2026-01-05T10:00:00Z');
    const newer = await add('Invoices go out by email, not post.', user, '2026-02-05T10:00:00Z');
    const bundle = await context('how are invoices sent?', user);
    expect(pairs(bundle)).toEqual([[older, newer]]);
    expect(bundle.conflicts?.[0]?.explanation).toContain(
      'one negates what the other says about the same subject ("post"',
    );
  });

  it.each([
    ['Jim is a nurse.', 'Call me James, not Jim.', 'what is Jim?'],
    ["I don't like being called Jim.", 'Call me James, not Jim.', 'what should you call me?'],
    ['The frontend is hosted on Vercel.', 'The backend is hosted on Fly, not Vercel.', 'where is it hosted?'],
  ])(
    'never pairs a denied item with a statement of another subject, or one that denies it too: %s / %s',
    async (first, second, query) => {
      const user = scope();
      await add(first, user, '2026-01-05T10:00:00Z');
      await add(second, user, '2026-02-05T10:00:00Z');
      expect(pairs(await context(query, user))).toEqual([]);
    },
  );

  it.each([
    ['The first invoice is paid.', 'The second invoice is unpaid.', 'which invoices are paid?'],
    ['My son is left-handed.', 'My daughter is right-handed.', 'who is left-handed?'],
    ['The pharmacy shuts at 6 pm.', 'The post office at the station closes at 5 pm.', 'when do the shops close?'],
    ['The loan will probably be approved.', 'The loan was rejected.', 'what about the loan?'],
  ])('never pairs look-alikes: %s / %s', async (first, second, query) => {
    const user = scope();
    await add(first, user, '2026-01-05T10:00:00Z');
    await add(second, user, '2026-02-05T10:00:00Z');
    expect(pairs(await context(query, user))).toEqual([]);
  });
});
