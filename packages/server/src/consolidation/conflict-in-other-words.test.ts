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
    ['Our mortgage is 2,100 a month.', 'We pay 2,300 a month for the mortgage.', '#/month'],
    ['The session timeout is 15 minutes.', 'Sessions expire after one hour.', '<duration>'],
    ['The newsletter goes out weekly.', 'The newsletter goes out every month.', '<frequency>'],
    ['The ferry to Arran leaves at 7:10.', 'The Arran ferry leaves at 7:40.', '<time>'],
  ])('finds a changed value: %s / %s', (older, newer, valueKind) => {
    expect(conflictInOtherWords(older, newer)).toMatchObject({ kind: 'value_changed', valueKind });
  });

  it.each([
    ['The bus to Leeds leaves at 7:15.', 'The Leeds bus departs at 7:45.', '<time>'],
    ['The bakery shuts at 5 pm.', 'The bakery is open until 6 pm.', '<time>'],
    ['Our balcony faces west.', 'The balcony is east-facing.', '<direction>'],
    ['My nephew is left-handed.', 'My nephew is right-handed.', '<side>'],
    ['My grandfather is 81.', 'Grandpa is 78 years old.', '#age'],
  ])('finds a changed value in other words: %s / %s', (older, newer, valueKind) => {
    expect(conflictInOtherWords(older, newer)).toMatchObject({ kind: 'value_changed', valueKind });
  });

  it.each([
    ['The grant application was approved.', 'The grant application was rejected.', 'approved', 'rejected'],
    ['The parking fine was paid last week.', 'The parking fine is still unpaid.', 'paid', 'unpaid'],
    ['The shed is locked at night.', 'The shed is unlocked at night.', 'locked', 'unlocked'],
  ])('finds one subject in two opposite states: %s / %s', (older, newer, before, after) => {
    expect(conflictInOtherWords(older, newer)).toMatchObject({
      kind: 'opposite_state',
      older: [before],
      newer: [after],
    });
  });

  it('finds a negation of the same words', () => {
    expect(conflictInOtherWords('I drink coffee every morning.', "I don't drink coffee anymore.")).toMatchObject({
      kind: 'negated',
    });
    expect(conflictInOtherWords('I keep two rabbits.', "I don't keep a rabbit.")).toMatchObject({
      kind: 'negated',
    });
  });

  it('finds another value of a single-valued relation and the opposite sentiment', () => {
    expect(conflictInOtherWords('The summit is in Oslo.', 'The summit is being held in Bergen.')).toMatchObject({
      kind: 'other_value',
      relation: 'takes place in',
      older: ['Oslo'],
      newer: ['Bergen'],
    });
    expect(conflictInOtherWords('Tom loves olives.', "Tom can't stand olives.")).toMatchObject({
      kind: 'opposite_sentiment',
      older: ['likes'],
      newer: ['dislikes'],
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
    // Two amounts of one owner, or of another thing, per month; other periods of other things.
    ['I pay 300 a month for my car.', 'My car costs 90 a month to insure.'],
    ['Rent is 1,450 a month.', 'Rent for the garage is 200 a month.'],
    ['I earn 50 an hour.', 'I pay 20 an hour for parking.'],
    ['Her rent is 900 a month.', 'Our rent is 1,200 a month.'],
    ['The session timeout is 15 minutes.', 'The cache TTL is 30 minutes.'],
    ['The meeting lasts 30 minutes.', 'The commute takes 45 minutes.'],
    ['I call my mom once a week.', 'I call my dad every day.'],
    ['I go running three times a week.', 'I go swimming twice a week.'],
    ['We walk the dog every morning at 7am.', 'The dog eats at 6pm.'],
    ['I went to Lisbon two weeks ago.', 'I went to Porto three weeks ago.'],
    ['My brother lives in Chicago.', 'My sister lives in Austin.'],
    ['I love dogs.', 'I hate small dogs.'],
    // Synonyms, opposite states, ages, directions and sides: each look-alike is another subject, a plan, or a
    // different attribute.
    ['The pharmacy shuts at 6 pm.', 'The post office at the station closes at 5 pm.'],
    ['The express to York leaves at 9:10.', 'The express to York arrives at 11:20.'],
    ['The first invoice is paid.', 'The second invoice is unpaid.'],
    ['The loan will probably be approved.', 'The loan was rejected.'],
    ['The gallery is open on Mondays.', 'The gallery closes at 5 pm on Mondays.'],
    ['My son is left-handed.', 'My daughter is right-handed.'],
    ["I'm 41 years old.", 'My husband is 45.'],
    ['Our kitchen faces north.', 'Our bedroom faces south.'],
    ['I need to inform the landlord.', 'The form is on the desk.'],
    ['Grandma is 88.', 'Grandpa is 91.'],
    ['Is the grant approved?', 'The grant was rejected.'],
  ])('keeps look-alikes apart: %s / %s', (older, newer) => {
    expect(conflictInOtherWords(older, newer)).toBeNull();
  });
});
