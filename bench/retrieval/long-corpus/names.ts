/** Word pools for planted facts and chatter: names, places and products (mostly rare words, as in real histories). */
const words = (text: string): readonly string[] => text.split(' ');

export const FIRST_NAMES = words(
  'Amara Bastian Caoimhe Dmitri Esperanza Florin Gwendolyn Hamid Isolde Jovan Kalani Leocadia Mirela Nnamdi Oksana Paulo Quilla Radovan Saoirse Tobiah Ulla Valentin Wilhelmina Xiomara Yusuf Zdenka Anselm Briseida Corentin Delphine Emeka Fenella Gideon Hesper Ilario Jorunn Kasimir Linnea Marisol Niamh Orrin Perpetua Rasmus Solveig Tancredi Undine Vesna Wendeline',
);

export const SURNAMES = words(
  'Okonkwo Lindqvist Haverford Ramachandran Delacroix Brennagh Takahashi Moreau Kowalczyk Abernathy Szabo Oyelaran Castellanos Whitfield Nakamura Petrossian Galbraith Vukovic Andersson Mbeki Farquhar Iwasaki Lachance Rosenthal',
);

export const PET_NAMES = words(
  'Biscuit Mochi Juniper Waffles Ziggy Clementine Nacho Pickles Marble Otis Tofu Sprocket Pumpernickel Gizmo Noodle Brisket Dumpling Pretzel Rascal Truffle',
);

export const PLACES = words(
  'Porto Ljubljana Valparaiso Tbilisi Oaxaca Tallinn Cartagena Bruges Hobart Galway Salzburg Marrakesh Bergen Trieste Cusco Hoi_An Zanzibar Kotor Matera Dubrovnik',
).map((place) => place.replace('_', ' '));

export const NEIGHBORHOODS = words(
  'Ballard Fremont Kerrisdale Roncesvalles Ostend Wicker_Park Bywater Shimokitazawa Kreuzberg Vesterbro Palermo_Soho Chapinero Neukolln Clerkenwell Fitzroy',
).map((place) => place.replace('_', ' '));

export const LAKES = words(
  'Wallowa Tahquamenon Okanagan Winnipesaukee Kootenay Moraine Chelan Shasta Temagami Quetico',
);

export const CAR_MODELS = words(
  'Outback Corolla Civic Golf Forester Ioniq Leaf Mazda3 Tacoma Octavia CX-5 Niro Prius Crosstrek Kona',
);

export const PAINT_COLORS = words(
  'Sage_Whisper Harbor_Mist Oat_Milk Terracotta_Dusk Quiet_Fjord Lichen Marigold_Haze Pewter_Cove Saffron_Thread Blue_Heron',
).map((color) => color.replace('_', ' '));

export const RACES = words('Redwood Lakeshore Bayside Riverbend Cascade Ironwood Harvest Glacier Pinecrest Sandhill');

export const SONGS = words(
  'Blackbird Clair_de_Lune Hallelujah Wonderwall Gymnopedie Vincent Landslide Yesterday Fur_Elise Hotel_California',
).map((song) => song.replace(/_/g, ' '));

export const BOOKS = words(
  'The_Salt_Orchard Nightjar Ember_Province A_Lantern_for_Oslo The_Copper_Atlas Quiet_Tides The_Glass_Cartographer Wolfsbane_Summer The_Ninth_Meridian Paper_Harbors',
).map((title) => title.replace(/_/g, ' '));

export const BANKS = words(
  'Northwind Cobalt Fernhill Ledgerline Brightwater Harborview Keystone Meridian Alderbank Sunstone',
);

export const SCHOOLS = words(
  'Maplewood Riverside_Montessori Willowbrook Cedar_Hollow Linden_Grove Fairhaven Brookside Oakridge Larkspur Hawthorn',
).map((school) => school.replace('_', ' '));

export const RESTAURANTS = words(
  'Osteria_Lupo Casa_Mirna The_Blue_Finch Kaiseki_Hana Bistro_Margaux Taqueria_Solano The_Copper_Kettle Little_Saigon_Kitchen Trattoria_Vela Ember_and_Oak',
).map((name) => name.replace(/_/g, ' '));

export const CAMERAS = words('Fujifilm Lumix Ricoh Hasselblad Leica Pentax Olympus Sigma Nikon Canon');

export const PLANTS = words(
  'wisteria magnolia camellia agapanthus peony hydrangea clematis gardenia jasmine hibiscus lilac bougainvillea',
);

export const MOVIES = words('Aftersun Coco Up Arrival Minari Nomadland Paterson Roma Columbus Boyhood Wall-E Amelie');

export const WIFI_NAMES = words(
  'PrettyFlyForAWifi Hogwarts_Hall TheLANBeforeTime Gandalf_Router Fenwick_5G Cedar_Mesh',
);

export const PROGRAMMING_LANGUAGES = words('Go Rust Kotlin Elixir Scala Haskell Clojure OCaml');

export const PLATFORMS = words('Kubernetes Fly.io Heroku Nomad Render Railway');

export const FOODS = words('cheese shellfish peanuts sesame mustard celery lupin kiwi mango soy');

export const MONTHS = words('January February March April May June July August September October November December');

export const RELATIONS = words(
  'sister brother mom dad wife husband partner friend coworker neighbor boss roommate cousin aunt uncle',
);

export const CHILDREN = words('son daughter');

export const ANIMALS = words('dog puppy cat kitten rabbit parrot');

export const INSTRUMENTS = words('guitar piano violin ukulele cello');

export const LANGUAGES = words('Spanish French German Japanese Italian Portuguese Korean Dutch');

export const ROOMS = words('bedroom kitchen hallway bathroom office nursery');
