/**
 * The topic vocabularies of the generated long conversations: what a person asks an assistant about, each with its
 * nouns, verbs and adjectives. Messages mix a main topic with a second one, so every content word of a question also
 * turns up in many messages that do not answer it (as in real chat histories), and BM25 has to weigh, not just match.
 */
export interface Topic {
  name: string;
  nouns: readonly string[];
  verbs: readonly string[];
  adjectives: readonly string[];
}

const topic = (name: string, nouns: string, verbs: string, adjectives: string): Topic => ({
  name,
  nouns: nouns.split(' '),
  verbs: verbs.split(' '),
  adjectives: adjectives.split(' '),
});

/** Twenty everyday subjects; words deliberately overlap between some of them (plan, schedule, budget, class). */
export const TOPICS: readonly Topic[] = [
  topic(
    'cooking',
    'recipe oven skillet sauce garlic onion broth pasta dough flour butter spice chili curry marinade dinner lunch ingredient knife pan casserole salad vinegar yeast bread soup stew rice noodle tomato pepper herb basil lemon dessert cake batch kitchen',
    'bake simmer roast chop marinate season stir whisk knead saute grill braise taste freeze reheat',
    'crispy tender spicy savory fresh bland creamy smoky tangy hearty rich quick',
  ),
  topic(
    'travel',
    'flight hotel itinerary passport airport luggage train ticket visa hostel beach museum tour booking layover city coast island ferry road trip map guidebook currency suitcase reservation airline terminal village cathedral market station vacation',
    'book pack fly explore visit cancel reschedule wander check land rent',
    'cheap crowded scenic direct overnight cozy remote historic busy affordable long early',
  ),
  topic(
    'fitness',
    'workout run marathon interval squat deadlift stretch knee shoulder gym treadmill pace mile race coach routine protein recovery injury plank bike swim lap cardio muscle rep set training warmup schedule shoe hill',
    'train lift jog sprint stretch rest recover cycle swim track increase taper',
    'sore steady intense easy slow fast strong tired consistent gradual heavy light',
  ),
  topic(
    'programming',
    'backend frontend database query api endpoint server deploy pipeline test bug framework library repository branch commit container cluster cache latency schema migration service script function compiler runtime language module config logging',
    'refactor debug deploy merge compile profile cache test rollback review ship migrate',
    'slow flaky stable async typed legacy scalable broken clean verbose concurrent robust',
  ),
  topic(
    'finance',
    'budget savings account bank loan mortgage interest rate credit card bill rent tax refund invoice paycheck expense retirement fund stock portfolio fee insurance deposit balance subscription payment debt statement',
    'save spend invest pay refinance transfer budget cancel deposit withdraw track compare',
    'monthly fixed variable expensive cheap high low annual overdue automatic safe risky',
  ),
  topic(
    'gardening',
    'garden tomato seed soil compost raised bed seedling rose hedge lawn mulch fertilizer pot shade sun weed pest aphid orchid herb basil tulip bulb greenhouse hose watering harvest vine shrub fence pruning',
    'plant water prune sow mulch harvest repot fertilize weed transplant bloom sprout',
    'sunny shady dry wet sandy healthy wilted leggy hardy sprawling yellow green',
  ),
  topic(
    'home',
    'kitchen bathroom bedroom living room basement attic paint wall floor tile faucet leak furnace window door roof gutter shelf closet carpet ceiling contractor renovation landlord lease apartment house garage hallway',
    'paint fix install replace repair clean renovate measure drill caulk move rent',
    'drafty damp cramped spacious bright dark noisy old new cozy leaky modern',
  ),
  topic(
    'work',
    'manager meeting deadline project team coworker promotion review salary offer interview resume office client presentation report email colleague boss schedule conference proposal quarter launch hire role contract agenda slide feedback',
    'present negotiate hire apply schedule report lead manage pitch deliver delegate quit',
    'busy stressful remote hybrid senior junior urgent quarterly productive awkward difficult new',
  ),
  topic(
    'health',
    'doctor appointment checkup blood pressure prescription medication allergy sleep headache back pain diet sugar caffeine vitamin therapist symptom clinic test result dentist tooth insurance skin rash fever cold cough',
    'prescribe recommend schedule sleep reduce avoid cut check treat heal rest improve',
    'chronic mild severe allergic healthy tired anxious better worse regular restless sore',
  ),
  topic(
    'pets',
    'dog puppy cat kitten vet leash crate treat walk breed shelter litter toy collar groomer kibble fur paw tail bark rabbit hamster parrot aquarium fish bowl trainer park',
    'adopt train walk feed groom name rescue bark chew scratch cuddle foster',
    'playful shy energetic calm fluffy stubborn gentle anxious loyal tiny curious lazy',
  ),
  topic(
    'music',
    'guitar piano violin song chord lesson band concert album drum scale melody rhythm tune lyrics playlist festival recital teacher practice metronome amp string key vinyl choir',
    'play practice learn tune record perform compose strum sing listen rehearse improvise',
    'acoustic electric classical loud quiet catchy melodic upbeat slow jazzy difficult simple',
  ),
  topic(
    'books',
    'book novel author chapter library club series poem essay biography memoir mystery thriller fantasy bookstore kindle audiobook page plot character ending sequel edition shelf reading genre',
    'read recommend borrow finish discuss review skim reread lend order write annotate',
    'gripping slow dense funny dark long short classic modern boring moving clever',
  ),
  topic(
    'family',
    'sister brother mom dad grandmother grandfather cousin aunt uncle son daughter kid wife husband partner parents wedding birthday anniversary holiday reunion baby nephew niece family school kindergarten',
    'visit call celebrate host invite plan argue help babysit surprise raise forgive',
    'close distant loud proud supportive busy picky young elderly excited nervous happy',
  ),
  topic(
    'cars',
    'car truck engine tire brake oil battery dealer mileage lease sedan hatchback suv insurance mechanic transmission warranty commute parking garage gas charger hybrid electric windshield',
    'drive buy sell lease repair charge park tow inspect service replace trade',
    'used reliable fuel efficient noisy smooth electric cheap expensive compact roomy old',
  ),
  topic(
    'language',
    'spanish french german japanese italian portuguese korean tutor vocabulary grammar verb lesson app flashcard accent pronunciation exam conversation class course textbook dialect phrase translation fluency',
    'study practice learn memorize conjugate translate speak review pronounce drill repeat enroll',
    'fluent beginner intermediate advanced tricky irregular formal casual native weekly daily slow',
  ),
  topic(
    'photography',
    'camera lens tripod photo shot exposure aperture shutter portrait landscape lighting flash sensor editing raw print album filter zoom sunset frame composition gallery',
    'shoot edit frame focus expose crop print upload zoom capture develop retouch',
    'sharp blurry bright moody wide telephoto grainy vivid soft crisp dim golden',
  ),
  topic(
    'movies',
    'movie film series episode season director actor trailer cinema streaming documentary comedy drama sequel soundtrack scene plot ending theater premiere review channel subscription',
    'watch stream binge recommend rent rewatch review cancel subscribe pause skip finish',
    'funny scary slow boring brilliant predictable dark animated long short gripping weird',
  ),
  topic(
    'education',
    'course class degree semester exam homework professor lecture thesis grade scholarship tuition certificate bootcamp university campus assignment essay deadline seminar transcript application',
    'enroll study graduate apply submit pass fail retake audit attend present review',
    'online evening intensive graduate undergraduate expensive free hard easy useful optional part',
  ),
  topic(
    'outdoors',
    'hike trail camping tent backpack summit lake river canoe kayak mountain forest campfire sleeping bag boots map ranger wildlife bear trailhead cabin fishing rod permit weather',
    'hike camp paddle climb fish pitch explore navigate summit hunt trek wander',
    'steep muddy rocky quiet remote scenic cold windy sunny foggy easy exhausting',
  ),
  topic(
    'shopping',
    'store order delivery package return refund coupon discount sale brand size jacket shoes laptop phone headphones mattress couch table lamp gift warranty receipt cart checkout',
    'buy order return exchange compare ship deliver wrap wishlist bargain browse upgrade',
    'cheap pricey comfortable durable stylish broken late refurbished wireless heavy compact new',
  ),
];
