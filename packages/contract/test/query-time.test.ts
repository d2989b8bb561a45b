import { describe, expect, it } from 'vitest';
import { inTimeWindow, mentionsTime, resolveQueryTime, resolveRelativeDates, writtenDates } from '../src/index.js';

// Issue 24, part 3 ("Time"): the time expressions of a query, resolved against when it is asked.
// 2026-11-26 is a Thursday; its week starts on Monday 2026-11-23.
const NOW = '2026-11-26T12:00:00Z';

function windowsOf(query: string) {
  return resolveQueryTime(query, NOW).windows.map(({ text, from, to, everyYear }) => [
    text,
    from?.slice(0, 10) ?? null,
    to?.slice(0, 10) ?? null,
    everyYear,
  ]);
}

describe('resolveQueryTime: windows', () => {
  it.each([
    ['what did we decide last week?', 'last week', '2026-11-16', '2026-11-23', false],
    ['notes from yesterday', 'from yesterday', '2026-11-25', '2026-11-26', false],
    ['what happened today', 'today', '2026-11-26', '2026-11-27', false],
    ['anything this week', 'this week', '2026-11-23', '2026-11-30', false],
    ['the plan last month', 'last month', '2026-10-01', '2026-11-01', false],
    ['what I said 3 days ago', '3 days ago', '2026-11-23', '2026-11-24', false],
    ['two weeks ago we met', 'two weeks ago', '2026-11-09', '2026-11-16', false],
    ['the call last Friday', 'last Friday', '2026-11-20', '2026-11-21', false],
    ['goals last year', 'last year', '2025-01-01', '2026-01-01', false],
    ['the offsite in March', 'in March', '2026-03-01', '2026-04-01', true],
    ['the offsite in March 2023', 'in March 2023', '2023-03-01', '2023-04-01', false],
    ['the review on May 8', 'on May 8', '2026-05-08', '2026-05-09', true],
    ['the movie on 1 May, 2022', 'on 1 May, 2022', '2022-05-01', '2022-05-02', false],
    ['taxes in 2022', 'in 2022', '2022-01-01', '2023-01-01', false],
    ['the trip last March', 'last March', '2026-03-01', '2026-04-01', false],
    [
      'where was I between August 11 and August 15 2023',
      'between August 11 and August 15 2023',
      '2023-08-11',
      '2023-08-16',
      false,
    ],
    [
      'where was I the week before 16 November 2023',
      'the week before 16 November 2023',
      '2023-11-09',
      '2023-11-16',
      false,
    ],
    ['the second week of November 2023', 'the second week of November 2023', '2023-11-08', '2023-11-15', false],
    ['what changed recently', 'recently', '2026-10-27', null, false],
    [
      'the puppy two weeks before August 11, 2023',
      'two weeks before August 11, 2023',
      '2023-07-28',
      '2023-08-04',
      false,
    ],
    [
      'shown on the Sunday before October 25, 2022',
      'on the Sunday before October 25, 2022',
      '2022-10-23',
      '2022-10-24',
      false,
    ],
    ['the forest picture on December 1,2023', 'on December 1,2023', '2023-12-01', '2023-12-02', false],
    ['photos from March 2024', 'from March 2024', '2024-03-01', '2024-04-01', false],
    ['the trip from May 3 to May 9 2024', 'from May 3 to May 9 2024', '2024-05-03', '2024-05-10', false],
  ])('%s', (query, text, from, to, everyYear) => {
    expect(windowsOf(query)).toEqual([[text, from, to, everyYear]]);
  });

  it('opens a window with before / after / since', () => {
    expect(windowsOf('decisions before May 8 2024')).toEqual([['before May 8 2024', null, '2024-05-08', false]]);
    expect(windowsOf('decisions after March 2024')).toEqual([['after March 2024', '2024-04-01', null, false]]);
    expect(windowsOf('decisions since last month')).toEqual([['since last month', '2026-10-01', null, false]]);
    expect(windowsOf('tournaments won by July 10, 2022')).toEqual([['by July 10, 2022', null, '2022-07-11', false]]);
  });

  it('takes the relative time expressions out of the topic, and keeps the dates written out', () => {
    expect(resolveQueryTime('What did we decide about deploys last week?', NOW).topic).toBe(
      'What did we decide about deploys?',
    );
    expect(resolveQueryTime('deploys in March 2023', NOW).topic).toBe('deploys March 2023');
  });

  it('leaves a query without time expressions as it is', () => {
    for (const query of [
      'I may go to the gym',
      'May I ask about deploys?',
      'first aid kit location',
      'how do we deploy?  ',
    ]) {
      expect(resolveQueryTime(query, NOW)).toEqual({
        expressions: [],
        windows: [],
        order: null,
        asksWhen: false,
        topic: query,
      });
    }
  });
});

describe('resolveQueryTime: order and asking when', () => {
  it.each([
    ['what did I say first about the upgrade', 'oldest', 'first'],
    ['when did Caroline first go hiking', 'oldest', 'first'],
    ['the earliest note on billing', 'oldest', 'earliest'],
    ['what did we originally plan', 'oldest', 'originally'],
    ['the latest on the upgrade', 'newest', 'latest'],
    ['the most recent billing note', 'newest', 'most recent'],
    ['the last time we spoke about Rust', 'newest', 'last time'],
  ])('%s', (query, order, expression) => {
    const time = resolveQueryTime(query, NOW);
    expect(time.order).toBe(order);
    expect(time.expressions).toEqual([expression]);
  });

  it('reads the present tense as no order: the words leave the topic and nothing is reordered', () => {
    for (const [query, topic] of [
      ['What camera am I shooting with now?', 'What camera am I shooting with?'],
      ['which piece am I practicing these days', 'which piece am I practicing'],
      ['what is my current job', 'what is my job'],
      ['is Sam still on the platform team', 'is Sam on the platform team'],
    ] as const) {
      const time = resolveQueryTime(query, NOW);
      expect(time.order).toBeNull();
      expect(time.windows).toEqual([]);
      expect(time.topic).toBe(topic);
    }
    // An ordering word beside it still orders.
    expect(resolveQueryTime('what is the latest on my current job', NOW).order).toBe('newest');
  });

  it('asks when for a question about a time, not for a "when" clause', () => {
    for (const query of ['When did we move the deploys?', 'how long ago was the launch', 'What year did we move?'])
      expect(resolveQueryTime(query, NOW).asksWhen).toBe(true);
    for (const query of ['what do I eat when I am sick', 'deploy checklist'])
      expect(resolveQueryTime(query, NOW).asksWhen).toBe(false);
  });
});

describe('inTimeWindow and mentionsTime', () => {
  const lastWeek = resolveQueryTime('last week', NOW).windows[0];
  const march = resolveQueryTime('in March', NOW).windows[0];

  it('puts a memory in a window by when it was said, or by a date its content names', () => {
    if (lastWeek === undefined || march === undefined) throw new Error('windows expected');
    expect(inTimeWindow(lastWeek, '2026-11-18T09:00:00Z')).toBe(true);
    expect(inTimeWindow(lastWeek, '2026-11-24T09:00:00Z')).toBe(false);
    const said = '2026-11-24T09:00:00Z';
    expect(inTimeWindow(lastWeek, said, resolveRelativeDates('We shipped it last Friday.', said))).toBe(true);
    // A month named without a year is that month of any year.
    expect(inTimeWindow(march, '2019-03-31T23:00:00Z')).toBe(true);
    expect(inTimeWindow(march, '2019-04-01T00:00:00Z')).toBe(false);
  });

  it('reads the dates a text writes out, a date without a year in the year it was said', () => {
    const said = '2026-03-02T10:00:00Z';
    expect(writtenDates('I signed up for the half marathon in August.', said)).toEqual([
      { text: 'August', date: '2026-08-01', precision: 'month' },
    ]);
    expect(writtenDates('We met on May 8, 2023; the lease ran out in 2022.', said)).toEqual([
      { text: 'May 8, 2023', date: '2023-05-08', precision: 'day' },
      { text: '2022', date: '2022-01-01', precision: 'year' },
    ]);
    expect(writtenDates('May I ask about the March on Sunday?', said)).toEqual([]);
    expect(writtenDates('in August', 'not a date')).toEqual([]);
    // A window of any year's August holds a memory naming August, whenever it was said.
    const august = resolveQueryTime('what race am I training for in August?', NOW).windows[0];
    if (august === undefined) throw new Error('window expected');
    const race = 'I signed up for the half marathon in August.';
    expect(inTimeWindow(august, said)).toBe(false);
    expect(inTimeWindow(august, said, writtenDates(race, said))).toBe(true);
  });

  it('reads "last night" as the day before', () => {
    expect(resolveRelativeDates('We watched it last night', '2022-05-02T10:00:00Z')).toEqual([
      { text: 'last night', date: '2022-05-01', precision: 'day' },
    ]);
  });

  it.each([
    ['I went to the support group yesterday.', true],
    ["I've had them for 3 years now.", true],
    ['See you on Friday!', true],
    ['Back in May it was lovely.', true],
    ['The support group was great.', false],
    ['I may go, or I may not.', false],
  ])('%s', (text, expected) => {
    expect(mentionsTime(text)).toBe(expected);
  });
});
