import { describe, expect, it } from 'vitest';
import { rankedCandidate } from '../../test/ranked-candidate.js';
import { fuseRankings } from './hybrid.js';
import { TIME_MENTION_WEIGHT, timeMentionCredit, withTimeMentionCredit } from './time-mention-credit.js';

const now = new Date('2020-01-01T00:00:00.000Z');

describe('time-mention credit', () => {
  it('credits a memory that says when, only for a question that asks when', () => {
    const dated = rankedCandidate(1, { content: 'We moved the standup to 9:30 last Monday.' });
    const undated = rankedCandidate(2, { content: 'The standup is too early for the Lisbon office.' });
    expect(timeMentionCredit(dated, true)).toBe(TIME_MENTION_WEIGHT);
    expect(timeMentionCredit(undated, true)).toBe(0);
    expect(timeMentionCredit(dated, false)).toBe(0);
  });

  it('lifts the memory that says when over its neighbours in fusion, never one from the bottom', () => {
    const talk = Array.from({ length: 40 }, (_, index) =>
      rankedCandidate(index + 10, { content: `Kira: the pottery class was fun, note ${index}` }),
    );
    const dated = rankedCandidate(2, { content: 'Kira: I joined the pottery class three weeks ago.' });
    const near = [talk[0], talk[1], dated, ...talk.slice(2)].filter((entry) => entry !== undefined);
    const order = (asksWhen: boolean, list = near) =>
      withTimeMentionCredit(fuseRankings(list, [], now), { asksWhen, served: 10 }).map((entry) => entry.row.seq);
    expect(order(false).indexOf(2)).toBe(2);
    expect(order(true)[0]).toBe(2);
    const far = order(true, [...talk, dated]);
    expect(far.indexOf(2)).toBeGreaterThan(10);
  });

  it('brings a memory that says when from just below the cut into it, and reads none far below it', () => {
    const talk = Array.from({ length: 40 }, (_, index) =>
      rankedCandidate(index + 10, { content: `Kira: the pottery class was fun, note ${index}` }),
    );
    const dated = rankedCandidate(2, { content: 'Kira: I joined the pottery class three weeks ago.' });
    const fused = fuseRankings([...talk.slice(0, 11), dated, ...talk.slice(11)], [], now);
    const credited = withTimeMentionCredit(fused, { asksWhen: true, served: 10 });
    expect(credited.findIndex((entry) => entry.row.seq === 2)).toBeLessThan(10);
    // Far below the cut the scores are the fusion's own.
    const deep = withTimeMentionCredit(fuseRankings([...talk, dated], [], now), { asksWhen: true, served: 5 });
    expect(deep.find((entry) => entry.row.seq === 2)?.score).toBe(
      fuseRankings([...talk, dated], [], now).find((entry) => entry.row.seq === 2)?.score,
    );
  });
});
