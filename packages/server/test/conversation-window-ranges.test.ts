import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberRanges, membersHolding } from '../src/retrieval/conversation-window.js';
import type { Database } from '../src/store/database.js';
import { importNotes, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

// Conversation windows read which of their members hold each query term: a rare term in one pass over its matches, a
// frequent one range by range, a window's neighbours in one seek into the term's matches and the memories between two
// windows read past only when that costs less than another seek (`retrieval/conversation-window.ts`).

describe('the ranges a term is read in', () => {
  it('keeps a run of neighbours in one range, whatever the term', () => {
    expect(memberRanges([4, 5, 6, 7, 8], 1)).toEqual([[4, 8]]);
  });

  it('reads a frequent term window by window: the memories between two windows would cost more than a seek', () => {
    expect(memberRanges([10, 11, 12, 100, 101, 102], 1)).toEqual([
      [10, 12],
      [100, 102],
    ]);
    expect(memberRanges([10, 11, 12, 100, 101, 102], 0.5)).toEqual([
      [10, 12],
      [100, 102],
    ]);
  });

  it('reads past a gap that holds fewer of the term’s matches than one seek costs', () => {
    // 29 memories between them, every one holding the term: 29 matches read past, cheaper than a second seek.
    expect(memberRanges([10, 40], 1)).toEqual([[10, 40]]);
    expect(memberRanges([10, 42], 1)).toEqual([
      [10, 10],
      [42, 42],
    ]);
  });

  it('joins far members while the term is rare enough that reading past the gap costs less than a seek', () => {
    expect(memberRanges([10, 11, 5_000, 5_001, 20_000], 0.001)).toEqual([[10, 20_000]]);
    expect(memberRanges([3, 900_000], 0)).toEqual([[3, 900_000]]);
  });
});

describe('which window members hold a term', () => {
  let server: TestServer;
  let database: Database;
  /** 600 notes: "harbour" in every other one, "lantern" in every hundredth; seqs 1..600 in this order. */
  const notes = Array.from({ length: 600 }, (_, index) =>
    [
      `Note ${index}`,
      index % 2 === 0 ? 'about the harbour' : 'about the garden',
      index % 100 === 7 ? 'and the lantern' : '',
    ].join(' '),
  );
  const holders = (word: string, members: readonly number[]) =>
    members.filter((seq) => (notes[seq - 1] ?? '').includes(word));

  beforeAll(async () => {
    server = await createTestServer();
    database = await workspaceDatabase(server);
    await importNotes(database, notes);
  });
  afterAll(async () => {
    await server.close();
  });

  /**
   * Runs of neighbours around scattered memories, as windows are read, and a lone member at each end: 9 members, so a
   * term in more than 270 memories (30 a member) is read range by range, a rarer one in one pass.
   */
  const members = [1, ...[50, 51, 52], ...[206, 207, 208], 408, 600];

  it('finds the members holding a frequent term range by range, none of the memories between', async () => {
    // "harbour" is in half the memories: 1 and 50-52 are one range (48 memories between them, ~24 matches read past).
    expect(memberRanges(members, 0.5)).toEqual([
      [1, 52],
      [206, 208],
      [408, 408],
      [600, 600],
    ]);
    const found = await membersHolding(database, members, { expression: '"harbour"', frequency: 300 }, 600);
    expect(found.sort((left, right) => left - right)).toEqual(holders('harbour', members));
    expect(found).toEqual([1, 51, 207]);
  });

  it('finds every member holding a rare term, read in one pass over its matches', async () => {
    const found = await membersHolding(database, members, { expression: '"lantern"', frequency: 6 }, 600);
    // Seqs 8, 108, 208, 308, 408, 508 hold it; only 208 and 408 are members.
    expect(found.sort((left, right) => left - right)).toEqual([208, 408]);
  });

  it('answers the same whichever way stale cached counts say to read', async () => {
    for (const word of ['harbour', 'lantern'])
      for (const counted of [0, 1, 60, 300, 600, 10_000]) {
        const found = await membersHolding(database, members, { expression: `"${word}"`, frequency: counted }, 600);
        expect(found.sort((left, right) => left - right)).toEqual(holders(word, members));
      }
  });

  it('answers nothing for no members', async () => {
    expect(await membersHolding(database, [], { expression: '"harbour"', frequency: 300 }, 600)).toEqual([]);
  });
});
