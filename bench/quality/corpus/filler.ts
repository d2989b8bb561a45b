import { stableHash } from '../stable-hash.js';
import type { Domain } from './types.js';

/**
 * Neutral memories added to every case so retrieval is not trivial: each is a separate fact that no case statement
 * repeats, updates or contradicts. A case takes a few from domains other than its own (`fillersFor`).
 */
export const FILLERS: ReadonlyArray<readonly [Domain, string]> = [
  ['work', 'The printer on the second floor jams if you use thick paper.'],
  ['work', 'Quarterly OKRs are written in a shared spreadsheet.'],
  ['work', 'The meeting room called Everest has the best video setup.'],
  ['work', 'Visitors have to sign in at reception and wear a badge.'],
  ['engineering', 'The monorepo uses pnpm workspaces.'],
  ['engineering', 'Integration tests run against a containerised database.'],
  ['engineering', 'Every service exposes a health check on /healthz.'],
  ['engineering', 'Secrets are injected as environment variables at deploy time.'],
  ['personal', 'I keep a paper journal by my bed.'],
  ['personal', 'My favourite colour is forest green.'],
  ['personal', 'I learned to swim when I was nine.'],
  ['personal', 'I have a small tattoo of a swallow on my wrist.'],
  ['health', 'I try to drink two litres of water a day.'],
  ['health', 'I had my flu jab at the pharmacy this autumn.'],
  ['health', 'Stretching after work helps my lower back.'],
  ['health', 'I wear a mouth guard at night because I grind my teeth.'],
  ['travel', 'I always pack a universal plug adapter.'],
  ['travel', 'Our suitcase has a broken wheel that needs fixing.'],
  ['travel', 'I collect fridge magnets from every city I visit.'],
  ['travel', 'The nearest airport to us is about forty minutes by train.'],
  ['food', 'There is a jar of homemade plum jam in the pantry.'],
  ['food', 'Our slow cooker is great for stews in winter.'],
  ['food', 'Saturday breakfast is usually pancakes.'],
  ['food', 'We buy our coffee beans from a roaster in town.'],
  ['finance', 'Receipts for work expenses go in a folder on the desk.'],
  ['finance', 'The council tax is paid in ten instalments.'],
  ['finance', 'We keep a jar for spare coins on the hallway shelf.'],
  ['finance', 'The household budget is reviewed at the start of each quarter.'],
  ['family', 'My nephew is obsessed with dinosaurs.'],
  ['family', 'We have a family group chat called The Herd.'],
  ['family', 'Sunday lunch alternates between our house and my in-laws.'],
  ['family', 'My aunt sends a handwritten card every Christmas.'],
  ['hobbies', 'I am halfway through a 1,000-piece jigsaw of a lighthouse.'],
  ['hobbies', 'I bake bread most Sunday afternoons.'],
  ['hobbies', 'Board game night with friends is usually once a month.'],
  ['hobbies', 'I am slowly learning to juggle three balls.'],
  ['tools', 'The cordless drill lives in the garage cupboard.'],
  ['tools', 'I use a password manager on all my devices.'],
  ['tools', 'The label maker needs new tape.'],
  ['tools', 'My calendar syncs between my phone and laptop.'],
  ['schedule', 'The library is closed on Sunday afternoons.'],
  ['schedule', 'The clocks go back at the end of October.'],
  ['schedule', 'The window cleaner comes every six weeks.'],
  ['schedule', 'The corner shop opens at 7 in the morning.'],
  ['preferences', 'I prefer paperback books to e-readers.'],
  ['preferences', 'I like a cold bedroom when I sleep.'],
  ['preferences', 'I find podcasts easier to follow at normal speed.'],
  ['preferences', 'I would rather walk than take the bus for short trips.'],
  ['home', 'The smoke alarm in the hallway was tested this month.'],
  ['home', 'The back gate sticks when it rains.'],
  ['home', 'We have a water butt by the shed.'],
  ['home', 'The loft is full of old camping gear.'],
  ['pets', 'The neighbours have a tortoise called Gerald.'],
  ['pets', 'A robin visits the bird feeder every morning.'],
  ['pets', 'Our goldfish bowl needs a bigger filter.'],
  ['pets', 'The pet shop on the high street sells hay in bulk.'],
  ['education', 'I am working through a beginner Italian app course.'],
  ['education', 'The local college runs evening pottery classes.'],
  ['education', 'I still have my school reports in a box somewhere.'],
  ['education', 'My niece is learning her times tables.'],
];

/** `count` fillers for a case: stable per case id, none from the case's own domain, no two from the same domain. */
export function fillersFor(caseId: string, domain: Domain, count: number): string[] {
  const picked: string[] = [];
  const domains = new Set<Domain>([domain]);
  const start = stableHash(caseId) % FILLERS.length;
  for (let step = 0; step < FILLERS.length && picked.length < count; step += 1) {
    // A stride coprime with the pool size visits every filler once, in a case-dependent order.
    const entry = FILLERS[(start + step * 7) % FILLERS.length];
    if (entry === undefined || domains.has(entry[0])) continue;
    domains.add(entry[0]);
    picked.push(entry[1]);
  }
  return picked;
}
