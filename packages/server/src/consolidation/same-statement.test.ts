import { describe, expect, it } from 'vitest';
import { sameStatement } from './same-statement.js';

describe('sameStatement', () => {
  it.each([
    ["I'm allergic to penicillin.", 'I have a penicillin allergy.'],
    ['My brother Tomas lives in Porto.', 'Tomas, my brother, is based in Porto.'],
    ['Our dog Pip is nine years old.', 'Pip, the dog, is 9.'],
    ['The night bus departs at 23:40.', 'The night bus leaves at 11:40 pm.'],
    ['My grandma Rosa is 90.', 'Rosa, my grandmother, is ninety years old.'],
  ])('finds one fact in other words: %s / %s', (older, newer) => {
    expect(sameStatement(older, newer)).toBe(true);
  });

  it.each([
    // Roles swapped, another person, another polarity, another value, another tense.
    ['Alice reports to Ben.', 'Ben reports to Alice.'],
    ['The cat chased the dog.', 'The dog chased the cat.'],
    ["I'm allergic to penicillin.", "I'm not allergic to penicillin."],
    ["I'm allergic to penicillin.", "You're allergic to penicillin."],
    ['Tom is allergic to kiwi.', 'Tim is allergic to kiwi.'],
    ['Our dog Pip is nine years old.', 'Our dog Pip is ten years old.'],
    ['I visit Rome in June.', 'I visit Rome in July.'],
    ['My sister lives in Porto.', 'My sister lived in Porto.'],
    // One word more or less is another fact, or more of one: never merged.
    ['My sister lives in Porto.', "My sister's friend lives in Porto."],
    ['I have a penicillin allergy.', 'I have a mild penicillin allergy.'],
    ['My sister lives in Porto.', 'My brother lives in Porto.'],
    // Too few words to be sure.
    ['Coffee.', 'Coffees!'],
  ])('keeps different facts apart: %s / %s', (older, newer) => {
    expect(sameStatement(older, newer)).toBe(false);
  });
});
