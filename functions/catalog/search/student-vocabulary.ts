/**
 * How students write what course titles spell out: general English and campus shorthand, never a
 * course or a subject code of any institution. Which subject a word names is read from the catalog
 * itself (subject-names.ts); these lists only say what the words mean.
 */

/** Shorthand and synonyms: each word (or word pair) may mean any of these phrases. */
export const EXPANSIONS: Readonly<Record<string, readonly string[]>> = {
  // Subjects and fields
  calc: ['calculus'],
  precalc: ['precalculus'],
  psych: ['psychology'],
  psyc: ['psychology'],
  econ: ['economics'],
  'micro econ': ['microeconomics'],
  microecon: ['microeconomics'],
  micro: ['microeconomics', 'microbiology'],
  'macro econ': ['macroeconomics'],
  macroecon: ['macroeconomics'],
  macro: ['macroeconomics'],
  microbio: ['microbiology'],
  stat: ['statistics'],
  stats: ['statistics'],
  cs: ['computer science'],
  compsci: ['computer science'],
  'comp sci': ['computer science'],
  comp: ['computer', 'computing'],
  math: ['mathematics'],
  maths: ['mathematics'],
  bio: ['biology'],
  biol: ['biology'],
  biochem: ['biochemistry'],
  chem: ['chemistry'],
  phys: ['physics'],
  philo: ['philosophy'],
  phil: ['philosophy'],
  soc: ['sociology'],
  socio: ['sociology'],
  anthro: ['anthropology'],
  poli: ['political', 'politics'],
  polisci: ['political science'],
  'poli sci': ['political science'],
  geo: ['geography', 'geology'],
  lit: ['literature'],
  crim: ['criminology'],
  kin: ['kinesiology'],
  kines: ['kinesiology'],
  acct: ['accounting'],
  mgmt: ['management'],
  biz: ['business'],
  fin: ['finance'],
  mktg: ['marketing'],
  engg: ['engineering'],
  engr: ['engineering'],
  enviro: ['environmental'],
  env: ['environmental', 'environment'],
  govt: ['government'],
  intl: ['international'],
  astro: ['astronomy', 'astrophysics'],
  neuro: ['neuroscience'],
  // Topics
  ai: ['artificial intelligence'],
  ml: ['machine learning'],
  db: ['database'],
  dbs: ['database'],
  os: ['operating systems'],
  algo: ['algorithms'],
  algos: ['algorithms'],
  ds: ['data structures'],
  oop: ['object oriented'],
  hci: ['human computer interaction'],
  'diff eq': ['differential equations'],
  diffeq: ['differential equations'],
  ode: ['ordinary differential equations'],
  odes: ['ordinary differential equations'],
  pde: ['partial differential equations'],
  pdes: ['partial differential equations'],
  'lin alg': ['linear algebra'],
  linalg: ['linear algebra'],
  prob: ['probability'],
  trig: ['trigonometry'],
  orgo: ['organic chemistry'],
  ochem: ['organic chemistry'],
  'o chem': ['organic chemistry'],
  'gen chem': ['general chemistry'],
  prog: ['programming'],
  'web dev': ['web development'],
  webdev: ['web development'],
  dev: ['development'],
};

/**
 * Words whose courses often do not say them: the broader topic they are taught in ("learn to code"
 * is a programming course; Python is learnt in one that may not name it). Matched below the word
 * itself, and not at all when the query names the broader topic too ("java programming").
 */
export const BROADER: Readonly<Record<string, readonly string[]>> = {
  code: ['programming'],
  coding: ['programming'],
  coder: ['programming'],
  python: ['programming'],
  java: ['programming'],
  javascript: ['programming'],
  cpp: ['programming'],
  csharp: ['programming'],
  sql: ['database'],
};

/** Words that ask for a first course in a subject; as title words they mark one. */
export const INTRODUCTORY = new Set(['intro', 'introduction', 'introductory', 'introducing', 'beginner', 'beginners', 'beginning', 'basic', 'basics', 'elementary', 'fundamentals', 'foundations', 'principles', 'general', 'freshman', '101']);

/** Word pairs that ask for a first-year course ("first year english"). */
export const INTRODUCTORY_PAIRS = new Set(['first year', '1st year', 'year 1', 'lower division']);

/** Title words of a course a student rarely means by a topic: special topics, directed studies, theses, placements. */
export const GENERIC_TITLE = new Set(['topics', 'topic', 'special', 'directed', 'thesis', 'dissertation', 'practicum', 'placement', 'internship', 'coop', 'co', 'cooperative', 'independent', 'readings', 'examination', 'exam', 'comprehensive', 'proseminar', 'capstone']);

/** Of those, the ones that say nothing else: a query made only of them still searches for them. */
export const INTRODUCTORY_ONLY = new Set(['intro', 'introduction', 'introductory', 'beginner', 'beginners', 'beginning', 'basics', 'freshman', '101']);

/** Words of a request rather than of a topic ("learn to code", "courses on ethics"): kept but never required. */
export const FILLER = new Set(['learn', 'course', 'courses', 'class', 'classes', 'about', 'how', 'want', 'need', 'take', 'taking', 'year', 'level', 'university', 'college', 'online', 'i', 'me', 'my']);

/** Words that name a field after the word that names its subject ("political science", "gender studies"). */
export const FIELD = new Set(['science', 'sciences', 'studies', 'study']);

/** "calc 1", "calculus ii": the part of a sequence a number or a roman numeral names. */
export const SEQUENCE: Readonly<Record<string, number>> = { '1': 1, i: 1, one: 1, '2': 2, ii: 2, two: 2, '3': 3, iii: 3, three: 3, '4': 4, iv: 4, four: 4 };
export const SEQUENCE_WORDS: readonly (readonly string[])[] = [[], ['1', 'i'], ['2', 'ii'], ['3', 'iii'], ['4', 'iv']];
