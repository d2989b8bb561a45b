import { describe, expect, it } from 'vitest';
import { frameConflict } from './frame-conflict.js';

describe('frameConflict', () => {
  it.each([
    ['My brother lives in Chicago.', 'My brother lives in Austin.', 'lives in', 'Chicago', 'Austin'],
    ['My brother lives in Chicago.', 'My brother moved to Austin last year.', 'lives in', 'Chicago', 'Austin'],
    ['My brother currently lives in Chicago.', "My brother's living in Austin now.", 'lives in', 'Chicago', 'Austin'],
    ['The wedding is in Lisbon.', 'The wedding is being held in Porto.', 'takes place in', 'Lisbon', 'Porto'],
    ['The wedding is in Lisbon.', 'The wedding will take place in Porto.', 'takes place in', 'Lisbon', 'Porto'],
    ['Our database is hosted on Azure.', 'The database is hosted by Hetzner.', 'is hosted on', 'Azure', 'Hetzner'],
    ['Our hosting provider is Linode.', 'Our hosting provider is Hetzner.', 'is', 'Linode', 'Hetzner'],
    ['I work at Initech.', "I'm working at Hooli.", 'works at', 'Initech', 'Hooli'],
    ['Nora reports to Marcus.', 'Nora reports to Priya.', 'reports to', 'Marcus', 'Priya'],
    ['The backend is written in Go.', 'The backend is written in Rust.', 'is written in', 'Go', 'Rust'],
    ['My favourite dessert is tiramisu.', 'My favourite dessert is cheesecake.', 'is', 'tiramisu', 'cheesecake'],
    ['The boat is called Osprey.', "Our boat's name is Heron.", 'is called', 'Osprey', 'Heron'],
    ['Caroline: I live in Boston.', 'Caroline: I moved to Denver.', 'lives in', 'Boston', 'Denver'],
    // One relation in two wordings: a seat, a thing that lives on a platform, a degree.
    ['The startup is based in Lyon.', "The startup's headquarters are in Nantes.", 'lives in', 'Lyon', 'Nantes'],
    ['The wiki lives on Confluence.', 'The wiki is hosted on Notion.', 'is hosted on', 'Confluence', 'Notion'],
    [
      'The docs repo lives on GitHub.',
      'The docs repository is hosted on Codeberg.',
      'is hosted on',
      'GitHub',
      'Codeberg',
    ],
    [
      'Priya graduated from Leeds University.',
      'Priya got her degree from Durham University.',
      'graduated from',
      'Leeds University',
      'Durham University',
    ],
  ])('finds another value of a single-valued relation: %s / %s', (older, newer, relation, before, after) => {
    expect(frameConflict(older, newer)).toMatchObject({ relation, older: before, newer: after });
  });

  it.each([
    // Another subject, or a subject that is one of many.
    ['My brother lives in Chicago.', 'My sister lives in Austin.'],
    ['My friend is Sam.', 'My friend is Jo.'],
    ['My dog is called Biscuit.', 'My dog is called Pepper.'],
    ['He lives in Chicago.', 'He lives in Austin.'],
    // A name is no definite subject of a plain "is": "Alice is vegetarian" / "Alice is the team lead" are two facts.
    ['Alice is vegetarian.', 'Alice is the team lead.'],
    ['Max is a beagle.', 'Max is a good boy.'],
    // One value written two ways, or given in both.
    ['Our hosting provider is AWS.', 'Our hosting provider is Amazon Web Services.'],
    ['The office is based in New York City.', 'The office is based in New York.'],
    ['My parents live in Ohio and Florida.', 'My parents live in Ohio.'],
    // Past, hedged, planned, additive, negated or questioned: no single present value.
    ['I work at Initech.', 'I used to work at Hooli.'],
    ['I work at Initech.', 'I might work at Hooli next year.'],
    ['I live in Leeds.', 'I will live in York after the wedding.'],
    ['My aunt lives in Lyon.', 'My aunt also lives in Nice part of the year.'],
    ['The office was based in Dublin.', 'The office is based in Cork.'],
    ['The talk is in Boston.', 'The talk is not in Boston.'],
    ['Who lives in Denver?', 'My brother lives in Austin.'],
    ['The offsite is in Denver or Boulder.', 'The offsite is in Aspen.'],
    // Placed at different times, or many-valued relations.
    ["I'm in Berlin this week.", "I'm in Paris."],
    ["I'm in Berlin.", "I'm in Paris."],
    ['My wife is in Rome.', 'My wife is in Milan.'],
    ['Sam is in London.', 'Sam is in Leeds.'],
    ["I've been to Paris.", "I've been to Rome."],
    ['I visited Kyoto.', 'I visited Osaka.'],
    ['I speak French.', 'I speak German.'],
    ['The talk is in March.', 'The talk is in Boston.'],
    // Two speakers' "I" are two people.
    ['Caroline: I live in Boston.', 'Melanie: I live in Denver.'],
    ['Caroline: I live in Boston.', 'I live in Denver.'],
    // One graduates from a school and from a university, and holds degrees of two levels.
    ['Priya graduated from Leeds University.', 'Priya graduated from Hove High School.'],
    ["Priya got her master's degree from Leeds University.", 'Priya graduated from Durham University.'],
    ['Priya graduated from Leeds University.', 'Priya graduated from the University of Leeds.'],
    // A person "lives on" a street and "in" a city at once; a client is somewhere this week, its seat stays.
    ['My sister lives on Elm Street.', 'My sister lives in Denver.'],
    ["Our client's headquarters are in Paris.", 'Our client is in Lyon this week.'],
  ])('keeps look-alikes apart: %s / %s', (older, newer) => {
    expect(frameConflict(older, newer)).toBeNull();
  });
});
