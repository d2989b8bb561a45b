import { describe, expect, it } from 'vitest';
import type { ConsolidationCandidate } from '../store/consolidation-plan-rows.js';
import { planConsolidation } from './plan-consolidation.js';

let seq = 0;
function memory(id: string, content: string, occurredAt: string, overrides: Partial<ConsolidationCandidate> = {}) {
  seq += 1;
  return {
    id,
    seq,
    content,
    type: 'note',
    category: null,
    projectId: null,
    userId: 'u',
    contentHash: `hash-${id}`,
    createdAt: occurredAt,
    occurredAt,
    ...overrides,
  } satisfies ConsolidationCandidate;
}

describe('planConsolidation with restatements', () => {
  it('merges a restatement the indexer found into the newer of the pair', () => {
    const older = memory('a', "I'm allergic to penicillin.", '2026-01-01T00:00:00Z');
    const newer = memory('b', 'I have a penicillin allergy.', '2026-02-01T00:00:00Z');
    const other = memory('c', 'I keep a spare key under the mat.', '2026-01-15T00:00:00Z');
    const plan = planConsolidation([older, newer, other], [['b', 'a']]);
    expect(plan.groups).toEqual([expect.objectContaining({ winnerId: 'b', mergedIds: ['a'], supersededIds: [] })]);
  });

  it('merges a chain into its newest, and never across types or categories', () => {
    // Contents no word rule of consolidation relates: only the pairs do.
    const first = memory('a', 'Penicillin: an allergy since childhood.', '2026-01-01T00:00:00Z');
    const second = memory('b', "I'm allergic to penicillin.", '2026-02-01T00:00:00Z');
    const third = memory('c', 'I have a penicillin allergy.', '2026-03-01T00:00:00Z');
    const chain = planConsolidation(
      [first, second, third],
      [
        ['b', 'a'],
        ['c', 'b'],
      ],
    );
    expect(chain.groups.flatMap((group) => [group.winnerId, ...group.mergedIds].sort())).toEqual(['a', 'b', 'c']);
    expect(chain.groups[0]?.winnerId).toBe('c');
    const fact = memory('d', "I'm allergic to penicillin.", '2026-02-01T00:00:00Z', { type: 'fact' });
    expect(planConsolidation([first, fact], [['d', 'a']]).groups).toEqual([]);
    const tagged = memory('e', "I'm allergic to penicillin.", '2026-02-01T00:00:00Z', { category: 'health' });
    expect(planConsolidation([first, tagged], [['e', 'a']]).groups).toEqual([]);
  });

  it('ignores pairs whose memories are not candidates', () => {
    const only = memory('a', "I'm allergic to penicillin.", '2026-01-01T00:00:00Z');
    expect(planConsolidation([only], [['z', 'a']]).groups).toEqual([]);
  });
});
