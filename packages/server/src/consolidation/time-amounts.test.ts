import { describe, expect, it } from 'vitest';
import { statementWords } from './statement-facts.js';
import { readTimeAmounts } from './time-amounts.js';

const amounts = (text: string) => readTimeAmounts(statementWords(text)).map(({ kind, value }) => [kind, value]);

describe('readTimeAmounts', () => {
  it('reads one duration whatever its unit', () => {
    expect(amounts('The lock expires after 2 minutes.')).toEqual([['<duration>', '120']]);
    expect(amounts('The lock expires after 120 seconds.')).toEqual([['<duration>', '120']]);
    expect(amounts('It takes one hour.')).toEqual([['<duration>', '3600']]);
  });

  it('reads one frequency whatever its wording', () => {
    expect(amounts('Reports are sent every hour.')).toEqual([['<frequency>', '24']]);
    expect(amounts('Reports are sent 24 times a day.')).toEqual([['<frequency>', '24']]);
    expect(amounts('I swim twice a week.')).toEqual([['<frequency>', '0.285714']]);
    expect(amounts('The digest goes out weekly.')).toEqual([['<frequency>', String(Math.round(1e6 / 7) / 1e6)]]);
    expect(amounts('Payroll runs every 2 weeks.')).toEqual([['<frequency>', String(Math.round(1e6 / 14) / 1e6)]]);
  });

  it('reads no amount in an age, a point in time, a weekday or an ordinal', () => {
    expect(amounts("I'm 34 years old.")).toEqual([]);
    expect(amounts('We met 3 weeks ago.')).toEqual([]);
    expect(amounts('I run every Monday.')).toEqual([]);
    expect(amounts('We meet every second Tuesday.')).toEqual([]);
    expect(amounts('I run 20 miles a week.')).toEqual([]);
  });
});
