import { describe, expect, it } from 'vitest';
import { sentimentConflict } from './sentiment-conflict.js';

describe('sentimentConflict', () => {
  it.each([
    ['Tom loves olives.', "Tom can't stand olives.", 'likes', 'dislikes'],
    ['I enjoy jazz.', "I don't like jazz.", 'likes', 'dislikes'],
    ["I'm a big fan of horror movies.", 'I really dislike horror movies.', 'likes', 'dislikes'],
    ['Priya hates mushrooms.', 'Priya adores mushrooms.', 'dislikes', 'likes'],
    ['My dad avoids spicy food.', 'My dad loves spicy food.', 'dislikes', 'likes'],
  ])('finds the opposite sentiment of one subject to one object: %s / %s', (older, newer, before, after) => {
    expect(sentimentConflict(older, newer)).toMatchObject({ older: before, newer: after });
  });

  it.each([
    ['I love dogs.', 'I hate small dogs.'],
    ['I love running in the rain.', 'I hate running.'],
    ['Tom loves olives.', 'Tom loves pickles.'],
    ['Dad loves golf.', 'Mom hates golf.'],
    ['I loved sushi as a kid.', 'I hate sushi.'],
    ["I'd love to try sushi.", 'I hate sushi.'],
    ['I love it.', 'I hate it.'],
    ['I like tea.', "I don't like coffee."],
    ["I don't hate broccoli.", 'I love broccoli.'],
    ['Does Tom love olives?', 'Tom hates olives.'],
    ['I used to hate opera.', 'I love opera.'],
    ['Caroline: I love opera.', 'Melanie: I hate opera.'],
  ])('keeps look-alikes apart: %s / %s', (older, newer) => {
    expect(sentimentConflict(older, newer)).toBeNull();
  });
});
