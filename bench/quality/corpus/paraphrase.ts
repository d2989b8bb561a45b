import { type PairRow, pairCases } from './types.js';

/**
 * `paraphrase`: the same fact said twice in other words. Expected: merged when the service is sure; scored as merge
 * recall, reported apart from `duplicate`.
 */
const rows: PairRow[] = [
  ['health', "I'm allergic to peanuts.", 'I have a peanut allergy.', 'what am I allergic to?'],
  [
    'work',
    'Standup starts at 9:30 every morning.',
    'Every morning at half past nine we have our standup.',
    'what time is standup?',
  ],
  [
    'engineering',
    'Our production database is Postgres 16.',
    'Production runs on PostgreSQL version 16.',
    'which database do we run in production?',
  ],
  ['family', 'My sister Clara lives in Denver.', 'Clara, my sister, is based in Denver.', 'where does Clara live?'],
  ['food', 'Jonas is vegetarian.', "Jonas doesn't eat meat.", 'does Jonas eat meat?'],
  [
    'travel',
    'I always book window seats.',
    'When I fly I pick a seat by the window.',
    'which seat do I prefer on planes?',
  ],
  ['finance', 'My salary is paid on the 25th.', 'Payday for me is the 25th of each month.', 'when do I get paid?'],
  [
    'hobbies',
    "I've been going to the bouldering gym twice a week.",
    'Twice a week I go bouldering at the climbing gym.',
    'how often do I go climbing?',
  ],
  ['tools', 'We track bugs in Jira.', 'Jira is where the team logs its bugs.', 'where do we track bugs?'],
  [
    'schedule',
    'My dentist appointment is on March 3 at 4 pm.',
    "I'm seeing the dentist at 4 in the afternoon on March 3.",
    'when is my dentist appointment?',
  ],
  [
    'preferences',
    "I don't like being called Bob; call me Robert.",
    'Please use Robert, not Bob, when addressing me.',
    'what name should you use for me?',
  ],
  ['pets', 'Our cat Miso is twelve years old.', 'Miso, the cat, is 12.', 'how old is Miso?'],
  [
    'home',
    'The Wi-Fi password is on the fridge.',
    'You can find the wifi password stuck to the fridge.',
    'where is the wifi password?',
  ],
  [
    'education',
    'Lucas is studying mechanical engineering at Delft.',
    'At Delft, Lucas is doing a degree in mechanical engineering.',
    'what does Lucas study?',
  ],
  ['personal', 'I was born in Glasgow.', "Glasgow is my hometown; that's where I was born.", 'where was I born?'],
  [
    'work',
    'Helen approves all production releases.',
    "Every release to production needs Helen's sign-off.",
    'who approves production releases?',
  ],
  [
    'engineering',
    'The billing service is written in Go.',
    'We built the billing service in Golang.',
    'what language is the billing service written in?',
  ],
  [
    'health',
    'I take 50 mg of sertraline daily.',
    'My daily sertraline dose is 50 milligrams.',
    'what dose of sertraline do I take?',
  ],
  ['food', 'My favourite cuisine is Thai.', 'Of all cuisines I like Thai food best.', "what's my favourite cuisine?"],
  [
    'travel',
    'Our Tokyo hotel is in Shinjuku.',
    "We're staying at a hotel in the Shinjuku area of Tokyo.",
    'where is our hotel in Tokyo?',
  ],
  ['finance', 'The mortgage is with Nationwide.', 'Nationwide holds our home loan.', 'who is our mortgage with?'],
  [
    'family',
    'Dad retired from the railway in 2019.',
    'My father stopped working at the railway in 2019 when he retired.',
    'when did dad retire?',
  ],
  [
    'hobbies',
    'Mei plays the violin in a community orchestra.',
    'Mei is a violinist with the local community orchestra.',
    'what does Mei play?',
  ],
  ['tools', 'I use Neovim as my editor.', 'My text editor of choice is Neovim.', 'which editor do I use?'],
  [
    'schedule',
    'Team lunch is every other Friday.',
    'Every second Friday the team goes for lunch together.',
    'how often is team lunch?',
  ],
  [
    'preferences',
    'I prefer email over phone calls.',
    'Contact me by email rather than calling.',
    'how do I like to be contacted?',
  ],
  [
    'engineering',
    'Deployments need two approvals on the pull request.',
    'A pull request must be approved by two reviewers before it can be deployed.',
    'how many approvals does a deploy need?',
  ],
  [
    'work',
    'The Berlin office opens at 8.',
    'Our office in Berlin opens its doors at eight in the morning.',
    'when does the Berlin office open?',
  ],
  [
    'health',
    "Priya can't have gluten; she has coeliac disease.",
    'Priya is coeliac, so gluten is off the menu for her.',
    "what can't Priya eat?",
  ],
  [
    'pets',
    'Rex needs his heartworm pill on the first of the month.',
    'On the 1st of every month Rex gets a heartworm tablet.',
    'when does Rex get his heartworm medicine?',
  ],
  [
    'home',
    'The recycling is collected on Tuesdays.',
    'Tuesday is recycling collection day.',
    'when is recycling collected?',
  ],
  [
    'education',
    'My thesis is about coral reef bleaching.',
    "I'm writing my thesis on the bleaching of coral reefs.",
    'what is my thesis about?',
  ],
  ['personal', 'My shoe size is 42 EU.', 'I wear size 42 shoes in European sizing.', "what's my shoe size?"],
  [
    'finance',
    'We split the utility bills evenly with our flatmate.',
    'Utility bills are shared fifty-fifty between us and the flatmate.',
    'how do we split the bills?',
  ],
  [
    'food',
    "The kids won't eat anything spicy.",
    'Spicy food is a no-go for the children.',
    'do the kids eat spicy food?',
  ],
  [
    'travel',
    "Ben's flight lands at Heathrow at 6:40 am.",
    'Ben arrives into Heathrow at twenty to seven in the morning.',
    'when does Ben land?',
  ],
  [
    'engineering',
    'Staging is reset every night at midnight.',
    'Each night at 00:00 the staging environment gets wiped and rebuilt.',
    'when is staging reset?',
  ],
  ['tools', 'Design files are in Figma.', 'We keep all our design work in Figma.', 'where are the design files?'],
  [
    'work',
    'Omar is on parental leave until June.',
    "Omar's parental leave runs through to June.",
    'when is Omar back?',
  ],
  [
    'family',
    "My parents' anniversary is July 18.",
    'Mum and Dad got married on the 18th of July.',
    "when is my parents' anniversary?",
  ],
  [
    'hobbies',
    "I'm training for the Berlin marathon.",
    "The Berlin marathon is the race I'm preparing for.",
    'what race am I training for?',
  ],
  [
    'preferences',
    'Use metric units when you give me measurements.',
    'I want measurements in metric, please.',
    'which units should you use?',
  ],
  [
    'schedule',
    'The book club meets on the last Thursday of the month.',
    'Book club is held every month on its final Thursday.',
    'when does book club meet?',
  ],
  ['health', 'Elena is pregnant with her second child.', 'Elena is expecting her second baby.', 'is Elena expecting?'],
];

export const paraphraseCases = pairCases('paraphrase', 'para', rows);
