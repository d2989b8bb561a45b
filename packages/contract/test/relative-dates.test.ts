import { describe, expect, it } from 'vitest';
import { resolveRelativeDates } from '../src/index.js';

// Issue 24, part 3 ("Time"): relative expressions in content resolve against when the content was said.
// 2023-05-08 is a Monday.
const SAID = '2023-05-08T13:56:00Z';

function resolved(text: string, occurredAt = SAID) {
  return resolveRelativeDates(text, occurredAt).map(({ text: found, date, precision }) => [found, date, precision]);
}

describe('resolveRelativeDates', () => {
  it('resolves a yesterday to the day before the day it was said', () => {
    expect(resolveRelativeDates('Caroline went to a support group yesterday.', SAID)).toEqual([
      { text: 'yesterday', date: '2023-05-07', precision: 'day' },
    ]);
  });

  it.each([
    ['Today I paint', 'Today', '2023-05-08', 'day'],
    ['a concert tonight', 'tonight', '2023-05-08', 'day'],
    ['see you tomorrow', 'tomorrow', '2023-05-09', 'day'],
    ['I ran 3 days ago', '3 days ago', '2023-05-05', 'day'],
    ['a day ago', 'a day ago', '2023-05-07', 'day'],
    ['two weeks ago we met', 'two weeks ago', '2023-04-24', 'week'],
    ['a month ago', 'a month ago', '2023-04-01', 'month'],
    ['last week was busy', 'last week', '2023-05-01', 'week'],
    ['next week', 'next week', '2023-05-15', 'week'],
    ['last Friday', 'last Friday', '2023-05-05', 'day'],
    ['next Friday', 'next Friday', '2023-05-12', 'day'],
    ['this Friday', 'this Friday', '2023-05-12', 'day'],
    ['last Monday', 'last Monday', '2023-05-01', 'day'],
    ['next monday', 'next monday', '2023-05-15', 'day'],
    ['last month', 'last month', '2023-04-01', 'month'],
    ['next year', 'next year', '2024-01-01', 'year'],
  ])('%s', (text, expression, date, precision) => {
    expect(resolved(text)).toEqual([[expression, date, precision]]);
  });

  it('lists every expression in the order it appears, and resolves against the UTC day of occurredAt', () => {
    expect(resolved('Yesterday I booked the trip for next Friday.', '2023-05-08T23:30:00-02:00')).toEqual([
      ['Yesterday', '2023-05-08', 'day'],
      ['next Friday', '2023-05-12', 'day'],
    ]);
  });

  it('finds nothing in text without relative expressions, or for an unparseable time', () => {
    expect(resolved('Deploys on Fridays; the last weekend of May is off.')).toEqual([]);
    expect(resolved('yesterday', 'not a time')).toEqual([]);
  });
});
