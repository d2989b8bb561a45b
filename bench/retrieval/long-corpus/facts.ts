import * as pool from './names.js';

/**
 * The kinds of question asked about a planted fact. `direct`: worded like the statement (its subject words, never the
 * answer). `reworded`: as a person asks it later, sharing only a word or two with the statement. `rare`: names a rare
 * word the statement holds (a person, a place), which a few other messages also mention.
 */
export type QuestionKind = 'direct' | 'reworded' | 'rare';

/** One fact, said once in a user message, with look-alike sentences for other messages and the questions about it. */
export interface PlantedFact {
  topic: string;
  /** The sentence stated once, inside a longer user message: that message is the evidence. */
  statement: string;
  /** Sentences of the same frame about something else (another person, another pet), said in other messages. */
  lookAlikes: string[];
  questions: Array<{ kind: QuestionKind; text: string }>;
}

/** Picks one item of a list (the corpus generator's seeded choice). */
export type Pick = <T>(items: readonly T[]) => T;

type FactTemplate = (pick: Pick) => PlantedFact;

const other = <T>(pick: Pick, items: readonly T[], not: T): T => pick(items.filter((item) => item !== not));

/** Twenty-four facts a person tells an assistant in passing; each user gets every one, with their own values. */
export const FACT_TEMPLATES: readonly FactTemplate[] = [
  (pick) => {
    const [relation, animal, name] = [
      pick(['sister', 'brother', 'cousin', 'neighbor']),
      pick(pool.ANIMALS),
      pick(pool.PET_NAMES),
    ];
    return {
      topic: 'pets',
      statement: `My ${relation} adopted a ${animal} from the shelter and named it ${name}.`,
      lookAlikes: [
        `My ${other(pick, pool.RELATIONS, relation)} wants to adopt a ${pick(pool.ANIMALS)} but the landlord says no.`,
        `The shelter near my ${relation}'s place had a ${animal} adoption day last month.`,
      ],
      questions: [
        { kind: 'direct', text: `What did my ${relation} name the ${animal} from the shelter?` },
        { kind: 'reworded', text: `What is my ${relation}'s new pet called?` },
      ],
    };
  },
  (pick) => {
    const [first, last, team] = [
      pick(pool.FIRST_NAMES),
      pick(pool.SURNAMES),
      pick(['platform', 'design', 'data', 'mobile', 'sales']),
    ];
    return {
      topic: 'work',
      statement: `Starting Monday my new manager is ${first} ${last}, who moved over from the ${team} team.`,
      lookAlikes: [
        `My old manager used to cancel every one-on-one meeting before a deadline.`,
        `Someone from the ${team} team asked me to review their project proposal.`,
      ],
      questions: [
        { kind: 'direct', text: 'Who is my new manager starting Monday?' },
        { kind: 'reworded', text: "What's the name of the boss I report to now?" },
        { kind: 'rare', text: `Which team did ${first} ${last} move over from?` },
      ],
    };
  },
  (pick) => {
    const [doctor, food] = [pick(pool.SURNAMES), pick(['caffeine', 'sugar', 'salt', 'alcohol'])];
    return {
      topic: 'health',
      statement: `Dr. ${doctor} told me my headaches are probably from too much ${food}, so I'm cutting back.`,
      lookAlikes: [
        `I have a follow-up appointment with Dr. ${doctor} about my blood test results.`,
        `My ${pick(pool.RELATIONS)} gets headaches whenever the weather changes.`,
        `The doctor at the clinic said my back pain should heal with rest.`,
      ],
      questions: [
        { kind: 'direct', text: 'What did the doctor say is causing my headaches?' },
        { kind: 'reworded', text: 'Why do I keep getting headaches, according to my physician?' },
        { kind: 'rare', text: `What did Dr. ${doctor} tell me to cut back on?` },
      ],
    };
  },
  (pick) => {
    const [place, month] = [pick(pool.PLACES), pick(pool.MONTHS)];
    return {
      topic: 'travel',
      statement: `We booked the flights: ${place} in ${month}, ten nights at a small hotel by the harbor.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} went to ${other(pick, pool.PLACES, place)} last year and loved the hotel.`,
        `Flights in ${month} are always expensive, maybe we should travel later.`,
      ],
      questions: [
        { kind: 'direct', text: `Where did we book flights to for ${month}?` },
        { kind: 'reworded', text: `Which destination did we pick for the ${month} vacation?` },
      ],
    };
  },
  (pick) => {
    const [language, platform] = [pick(pool.PROGRAMMING_LANGUAGES), pick(pool.PLATFORMS)];
    return {
      topic: 'programming',
      statement: `At work we write the backend in ${language} and deploy it on ${platform}.`,
      lookAlikes: [
        `The frontend team keeps arguing about which framework to use for the dashboard.`,
        `Our backend tests are flaky whenever the database container restarts.`,
      ],
      questions: [
        { kind: 'direct', text: 'Which language do we write the backend in at work?' },
        { kind: 'reworded', text: 'What programming language is our server code written in?' },
        { kind: 'rare', text: `Where do we deploy the ${language} backend?` },
      ],
    };
  },
  (pick) => {
    const food = pick(pool.FOODS);
    return {
      topic: 'cooking',
      statement: `I'm allergic to ${food}, so please leave it out of any recipe you suggest.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} is allergic to ${other(pick, pool.FOODS, food)} and always checks the label.`,
        'Can you suggest a recipe that works for a dinner party of eight?',
      ],
      questions: [
        { kind: 'direct', text: 'What am I allergic to?' },
        { kind: 'reworded', text: 'Which ingredient should I avoid in recipes because of an allergy?' },
      ],
    };
  },
  (pick) => {
    const [color, model, miles] = [
      pick(['silver', 'blue', 'red', 'white', 'green']),
      pick(pool.CAR_MODELS),
      20 + Math.floor(pick([1, 2, 3, 4, 5]) * 9),
    ];
    return {
      topic: 'cars',
      statement: `I finally bought a car: a used ${color} ${model} with ${miles} thousand miles on it.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} bought a new ${other(pick, pool.CAR_MODELS, model)} and already regrets it.`,
        'The mechanic said the brakes on the old car were almost gone.',
      ],
      questions: [
        { kind: 'direct', text: 'What car did I finally buy?' },
        { kind: 'reworded', text: 'Which used vehicle did I end up getting?' },
      ],
    };
  },
  (pick) => {
    const [room, color] = [pick(pool.ROOMS), pick(pool.PAINT_COLORS)];
    return {
      topic: 'home',
      statement: `We painted the ${room} in a color called ${color} and it looks great.`,
      lookAlikes: [
        `The ${other(pick, pool.ROOMS, room)} still needs a second coat of paint.`,
        `My ${pick(pool.RELATIONS)} painted their ${room} a dark color and regrets it.`,
      ],
      questions: [
        { kind: 'direct', text: `What color did we paint the ${room}?` },
        { kind: 'reworded', text: `What shade is the ${room} now?` },
      ],
    };
  },
  (pick) => {
    const [race, month] = [pick(pool.RACES), pick(pool.MONTHS)];
    return {
      topic: 'fitness',
      statement: `I signed up for the ${race} half marathon in ${month}, my first race in years.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} ran a half marathon last spring and hurt a knee.`,
        `I signed up for a spin class but the schedule never works for me.`,
      ],
      questions: [
        { kind: 'direct', text: 'Which half marathon did I sign up for?' },
        { kind: 'reworded', text: `What race am I training for in ${month}?` },
      ],
    };
  },
  (pick) => {
    const [song, instrument] = [pick(pool.SONGS), pick(pool.INSTRUMENTS)];
    return {
      topic: 'music',
      statement: `I'm learning ${song} on the ${instrument}, the intro is tricky for my fingers.`,
      lookAlikes: [
        `My ${instrument} teacher wants me to practice scales before every song.`,
        `My ${pick(pool.RELATIONS)} is learning the ${other(pick, pool.INSTRUMENTS, instrument)} online.`,
      ],
      questions: [
        { kind: 'direct', text: `Which song am I learning on the ${instrument}?` },
        { kind: 'reworded', text: 'What piece am I practicing these days?' },
      ],
    };
  },
  (pick) => {
    const [book, genre] = [pick(pool.BOOKS), pick(['mystery', 'memoir', 'fantasy novel', 'thriller'])];
    return {
      topic: 'books',
      statement: `Our book club picked ${book} for this month, a ${genre} I had never heard of.`,
      lookAlikes: [
        'The book club meets at the library on the first Thursday of the month.',
        `My ${pick(pool.RELATIONS)} recommended a ${genre} but I could not finish it.`,
      ],
      questions: [
        { kind: 'direct', text: 'What did our book club pick this month?' },
        { kind: 'reworded', text: 'Which novel are we reading for the club?' },
      ],
    };
  },
  (pick) => {
    const [bank, rate] = [pick(pool.BANKS), pick(['4.1', '4.5', '3.9', '4.8'])];
    return {
      topic: 'finance',
      statement: `I moved my savings to ${bank} Bank because they pay ${rate} percent interest.`,
      lookAlikes: [
        'My checking account fees went up again this quarter.',
        `My ${pick(pool.RELATIONS)} keeps their savings in index funds instead of a bank.`,
      ],
      questions: [
        { kind: 'direct', text: 'Which bank did I move my savings to?' },
        { kind: 'reworded', text: 'Where is my money earning interest now?' },
      ],
    };
  },
  (pick) => {
    const [child, school] = [pick(pool.CHILDREN), pick(pool.SCHOOLS)];
    return {
      topic: 'family',
      statement: `My ${child} starts kindergarten at ${school} in September.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)}'s ${child} hated kindergarten for the first month.`,
        `We visited three schools before we decided, and ${other(pick, pool.SCHOOLS, school)} had the longest waitlist.`,
      ],
      questions: [
        { kind: 'direct', text: `Where does my ${child} start kindergarten?` },
        { kind: 'reworded', text: `Which school will my ${child} attend this fall?` },
      ],
    };
  },
  (pick) => {
    const [language, tutor] = [pick(pool.LANGUAGES), pick(pool.FIRST_NAMES)];
    return {
      topic: 'language',
      statement: `My ${language} tutor is called ${tutor}; we meet on Tuesday evenings over video.`,
      lookAlikes: [
        `I'm thinking about a ${language} course at the community college too.`,
        `${tutor} sent me a list of irregular verbs to review before the next lesson.`,
      ],
      questions: [
        { kind: 'direct', text: `What is my ${language} tutor called?` },
        { kind: 'reworded', text: `Who teaches me ${language}?` },
        { kind: 'rare', text: `When do I meet ${tutor} for lessons?` },
      ],
    };
  },
  (pick) => {
    const restaurant = pick(pool.RESTAURANTS);
    return {
      topic: 'family',
      statement: `For our anniversary we always go to ${restaurant}, the little place near the station.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)}'s anniversary dinner got cancelled because of the storm.`,
        `There's a new place near the station that does brunch on weekends.`,
      ],
      questions: [
        { kind: 'direct', text: 'Where do we always go for our anniversary?' },
        { kind: 'reworded', text: 'Which restaurant is our tradition every anniversary?' },
      ],
    };
  },
  (pick) => {
    const [camera, lens] = [pick(pool.CAMERAS), pick(['35mm', '50mm', '24-70mm', '85mm'])];
    return {
      topic: 'photography',
      statement: `I bought a ${camera} camera with a ${lens} lens for the trip.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} still shoots with an old ${other(pick, pool.CAMERAS, camera)} from the nineties.`,
        `The lens I rented last summer was too heavy for hiking.`,
      ],
      questions: [
        { kind: 'direct', text: 'Which camera did I buy for the trip?' },
        { kind: 'reworded', text: 'What camera am I shooting with now?' },
      ],
    };
  },
  (pick) => {
    const [neighborhood, month] = [pick(pool.NEIGHBORHOODS), pick(pool.MONTHS)];
    return {
      topic: 'home',
      statement: `We're moving to ${neighborhood} in ${month}; the new apartment has a balcony.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} moved to ${other(pick, pool.NEIGHBORHOODS, neighborhood)} and hates the noise.`,
        `The landlord of the current apartment wants two months notice before we move.`,
      ],
      questions: [
        { kind: 'direct', text: 'Which neighborhood are we moving to?' },
        { kind: 'reworded', text: 'Where is our new apartment?' },
      ],
    };
  },
  (pick) => {
    const network = pick(pool.WIFI_NAMES);
    return {
      topic: 'home',
      statement: `Our wifi network name is ${network}, I keep forgetting it when guests ask.`,
      lookAlikes: [
        'The wifi keeps dropping in the bedroom, maybe we need a mesh router.',
        'Guests always ask for the password and I never remember where I wrote it.',
      ],
      questions: [
        { kind: 'direct', text: 'What is the name of our wifi network?' },
        { kind: 'reworded', text: 'What is the wireless network called at home?' },
      ],
    };
  },
  (pick) => {
    const [coworker, month, day] = [
      pick(pool.FIRST_NAMES),
      pick(pool.MONTHS),
      1 + Math.floor(pick([0, 1, 2, 3, 4, 5, 6]) * 4),
    ];
    return {
      topic: 'work',
      statement: `My coworker ${coworker}'s birthday is on ${month} ${day}, I should get a gift.`,
      lookAlikes: [
        `${coworker} helped me finish the quarterly report before the deadline.`,
        `The office did a surprise birthday cake for my boss last week.`,
      ],
      questions: [
        { kind: 'rare', text: `When is ${coworker}'s birthday?` },
        { kind: 'reworded', text: `What day should I get ${coworker} a present?` },
      ],
    };
  },
  (pick) => {
    const plant = pick(pool.PLANTS);
    return {
      topic: 'gardening',
      statement: `The ${plant} in the back garden finally bloomed after three years of waiting.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} gave me a ${other(pick, pool.PLANTS, plant)} cutting for the front garden.`,
        'The back garden gets too much shade for tomatoes.',
      ],
      questions: [
        { kind: 'direct', text: 'Which plant finally bloomed in the back garden?' },
        { kind: 'reworded', text: 'What flowered in my yard after years of waiting?' },
      ],
    };
  },
  (pick) => {
    const trainer = pick(pool.FIRST_NAMES);
    return {
      topic: 'fitness',
      statement: `My personal trainer ${trainer} wants me at the gym on Mondays and Thursdays.`,
      lookAlikes: [
        `${trainer} said my squat form is improving but my knees still cave in.`,
        'The gym is packed on Mondays after work, I might switch to mornings.',
      ],
      questions: [
        { kind: 'direct', text: "What is my personal trainer's name?" },
        { kind: 'rare', text: `Which days does ${trainer} want me at the gym?` },
      ],
    };
  },
  (pick) => {
    const [rate, years] = [pick(['5.2', '4.9', '6.1', '5.6']), pick(['15', '20', '30'])];
    return {
      topic: 'finance',
      statement: `We locked our mortgage at ${rate} percent with a ${years} year term.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} is trying to refinance their mortgage before rates go up.`,
        'The bank sent a letter about the escrow account and property tax.',
      ],
      questions: [
        { kind: 'direct', text: 'What rate did we lock the mortgage at?' },
        { kind: 'reworded', text: 'What interest rate is on our home loan?' },
      ],
    };
  },
  (pick) => {
    const [movie, relation] = [pick(pool.MOVIES), pick(pool.RELATIONS)];
    return {
      topic: 'movies',
      statement: `The movie that made me cry this year was ${movie}; I watched it with my ${relation}.`,
      lookAlikes: [
        `My ${other(pick, pool.RELATIONS, relation)} cried at the ending of a documentary about whales.`,
        `We watched a comedy last night that was not funny at all.`,
      ],
      questions: [
        { kind: 'direct', text: 'Which movie made me cry this year?' },
        { kind: 'reworded', text: `What film did I watch with my ${relation} that got me emotional?` },
      ],
    };
  },
  (pick) => {
    const lake = pick(pool.LAKES);
    return {
      topic: 'outdoors',
      statement: `We camped at ${lake} Lake last summer and saw a bear near the trailhead.`,
      lookAlikes: [
        `My ${pick(pool.RELATIONS)} wants to camp at ${other(pick, pool.LAKES, lake)} Lake next summer.`,
        'The ranger warned us to store food away from the tent because of bears.',
      ],
      questions: [
        { kind: 'direct', text: 'Where did we camp when we saw a bear?' },
        { kind: 'reworded', text: 'Which lake did we go to for camping last summer?' },
      ],
    };
  },
];
