import { describe, expect, it } from 'vitest';
import { conflictInOtherWords } from './conflict-in-other-words.js';

describe('conflictInOtherWords', () => {
  it.each([
    ['Deploys go out on Wednesdays after the standup.', 'The team deploys on Fridays now.', '<weekday>'],
    ['Standup is at 9:30 every morning.', 'We moved the daily standup to 10am.', '<time>'],
    ['The car insurance renews in March.', 'Car insurance renewal is now in September.', '<month>'],
    ['The API rate limit is 100 requests per minute.', 'The API allows 500 requests per minute.', '#request'],
    [
      'Two-factor authentication is required for admins.',
      'Two-factor authentication is optional for admins.',
      '<switch>',
    ],
    ['Our sprint planning happens on Mondays.', 'Sprint planning was moved to Tuesdays.', '<weekday>'],
    [
      'Dinner with the Hallorans is at 7 p.m. on Saturday.',
      'Dinner with the Hallorans is at 8pm on Saturday.',
      '<time>',
    ],
  ])('finds a changed value: %s / %s', (older, newer, valueKind) => {
    expect(conflictInOtherWords(older, newer)).toMatchObject({ kind: 'value_changed', valueKind });
  });

  it('finds a negation of the same words', () => {
    expect(conflictInOtherWords('I drink coffee every morning.', "I don't drink coffee anymore.")).toMatchObject({
      kind: 'negated',
    });
  });

  it.each([
    ['Alice is vegetarian.', 'Bob is vegetarian.'],
    ['I like tea.', 'I like hiking.'],
    ['My sister lives in Paris.', 'My brother lives in Rome.'],
    ['The frontend deploys on Fridays.', 'The backend deploys on Mondays.'],
    ['I went running on Monday.', 'I went swimming on Tuesday.'],
    ['I went running on Monday.', 'I ran again on Thursday.'],
    ['I have 2 kids.', 'I have 3 cats.'],
    ['The gym opens at 6am.', 'The gym closes at 10pm.'],
    ['My daughter has piano lessons on Tuesdays.', 'My son has football practice on Thursdays.'],
    ['The staging server has 16 GB of memory.', 'The production server has 64 GB of memory.'],
    ['I take my vitamins at 8am.', 'I take my medication at 9pm.'],
    ['Rent is due on the 1st of each month.', 'The electricity bill is due on the 15th.'],
    ['Payments use Stripe with idempotency keys', 'Payments use Stripe with idempotency keys, always'],
    ["I don't like coffee.", 'I like tea.'],
    [
      'Inventory item 35: shelf I34 holds labels for the office team.',
      'Inventory item 95: shelf I94 holds labels for the office team.',
    ],
    ['Our Paris flight out leaves on Friday.', 'Our Paris flight back leaves on Monday.'],
    ["I'm 34 years old.", 'My partner is 36 years old.'],
    ['Set a budget of 4,000 for the Japan trip.', 'We decided the Japan trip will be two weeks, not three.'],
  ])('keeps look-alikes apart: %s / %s', (older, newer) => {
    expect(conflictInOtherWords(older, newer)).toBeNull();
  });
});
