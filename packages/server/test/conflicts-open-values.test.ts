import { describe, expect, it } from 'vitest';
import { useConflictCases } from './conflict-cases.js';

// Issue 24: conflicts of open-class values in other words (a single-valued relation, a sentiment), look-alikes that
// stay apart, and the newer of a changed subject served first, through the HTTP API.

describe('conflicts of open values, and the newer first', () => {
  const cases = useConflictCases('open-value-case');
  const { scope, add, context, ids, pairs } = cases;

  it('pairs a reworded open-class value of a single-valued relation, explains it, and serves the newer first', async () => {
    const user = scope();
    const older = await add('The summit is in Oslo.', user, '2026-03-02T10:00:00Z');
    const newer = await add('The summit is being held in Bergen.', user, '2026-04-20T10:00:00Z');
    const bundle = await context('where is the summit?', user);
    expect(pairs(bundle)).toEqual([[older, newer]]);
    expect(bundle.conflicts?.[0]?.explanation).toContain('"takes place in"');
    expect(bundle.conflicts?.[0]?.explanation).toContain('Oslo before, Bergen now');
    expect(ids(bundle).indexOf(newer)).toBeLessThan(ids(bundle).indexOf(older));
  });

  it('pairs the opposite sentiment of one subject to one thing', async () => {
    const user = scope();
    const older = await add('Tom loves olives.', user, '2026-01-05T10:00:00Z');
    const newer = await add("Tom can't stand olives.", user, '2026-02-05T10:00:00Z');
    const bundle = await context('does Tom like olives?', user);
    expect(pairs(bundle)).toEqual([[older, newer]]);
    expect(ids(bundle)[0]).toBe(newer);
  });

  it('never pairs look-alikes: another subject, a many-valued relation, one of many, a past statement', async () => {
    const lookalikes: Array<[string, string, string]> = [
      ['My brother lives in Chicago.', 'My sister lives in Austin.', 'where do my siblings live?'],
      ['I visited Kyoto.', 'I visited Osaka.', 'where did I travel?'],
      ['My friend is Sam.', 'My friend is Jo.', 'who are my friends?'],
      ['I work at Initech.', 'I used to work at Hooli.', 'where do I work?'],
      ['I love dogs.', 'I hate small dogs.', 'how do I feel about dogs?'],
    ];
    for (const [first, second, query] of lookalikes) {
      const user = scope();
      await add(first, user, '2026-01-05T10:00:00Z');
      await add(second, user, '2026-02-05T10:00:00Z');
      const bundle = await context(query, user);
      expect(bundle.memories, `${first} / ${second}`).toHaveLength(2);
      expect(bundle.conflicts, `${first} / ${second}`).toEqual([]);
    }
  });

  it('serves first a newer memory that says its subject changed, with no conflict between them', async () => {
    const user = scope();
    const older = await add('I am reading Middlemarch.', user, '2026-01-05T10:00:00Z');
    const newer = await add('Finished Middlemarch; now I am reading Piranesi.', user, '2026-02-05T10:00:00Z');
    const bundle = await context('am I reading Middlemarch?', user);
    expect(bundle.conflicts).toEqual([]);
    expect(ids(bundle).slice(0, 2)).toEqual([newer, older]);
  });

  it('serves a change above the served memory closest to it in meaning, even in other words', async () => {
    const user = scope();
    await add('Our cat sleeps on the sofa most afternoons.', user, '2026-01-02T10:00:00Z');
    const older = await add('The office printer is a LaserJet.', user, '2026-01-05T10:00:00Z');
    await add('The office plants get watered on Mondays.', user, '2026-01-20T10:00:00Z');
    const newer = await add('We switched to a Brother for printing.', user, '2026-02-05T10:00:00Z');
    const bundle = await context('which printer do we use for printing?', user);
    expect(bundle.conflicts).toEqual([]);
    expect(ids(bundle)).toContain(older);
    expect(ids(bundle).indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(ids(bundle).indexOf(newer)).toBeLessThan(ids(bundle).indexOf(older));
  });

  it('leaves a long message where it ranked, though it says "now" about the same subject', async () => {
    const user = scope();
    const older = await add('I am reading Middlemarch.', user, '2026-01-05T10:00:00Z');
    // A conversation turn of many sentences: its "now" is about one of them, not a change of the reading.
    const turn = await add(
      'We talked about the book club for a while. Middlemarch came up again, and the long chapters. ' +
        'Now the club wants a shorter book for March. I said I would ask the others.',
      user,
      '2026-02-05T10:00:00Z',
    );
    const bundle = await context('am I reading Middlemarch?', user);
    expect(ids(bundle)).toContain(turn);
    expect(ids(bundle)[0]).toBe(older);
  });
});
