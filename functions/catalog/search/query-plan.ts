import { BROADER, EXPANSIONS, FIELD, FILLER, INTRODUCTORY, INTRODUCTORY_ONLY, INTRODUCTORY_PAIRS, SEQUENCE } from './student-vocabulary.js';
import { joinPrefixes, termOf, wordsOf } from './tokens.js';

/** What the plan asks of the catalog: its terms, and which subjects a word names or codes. */
export interface Lexicon {
  /** The term's id, or -1 when no course uses the word. */
  termIndex(word: string): number;
  /** Terms starting with the prefix, the exact one left out, at most `limit`. */
  termsStartingWith(prefix: string, limit: number): number[];
  /** The likeliest known words for a misspelt one (one edit, two from eight letters as typed), none when none is near. */
  nearestTerms(word: string, typedLength?: number): number[];
  /** The word a term id stands for. */
  wordOf(term: number): string;
  /** Subject groups (an institution's subject) the catalog names by this word or word pair. */
  subjectsNamed(name: string): readonly number[];
  /** Subject groups whose code is this word ("cmpt" → every institution's CMPT). */
  subjectsCoded(word: string): readonly number[];
  /** Whether a joined code term ("econ101") is some course's own code, at this institution when one is given. */
  isCourseCode(term: number, institution?: string): boolean;
  /** The institution a subject group belongs to. */
  institutionOfGroup(group: number): number;
  /** The institution a word is the id of ("sfu"), if any. */
  institutionNamed(word: string): string | undefined;
}

/** One way a concept is matched in course text: a term, at a factor of its full weight. */
export interface TextMatch {
  term: number;
  factor: number;
  /** A broader topic the word is taught in, not the word itself. */
  broader?: boolean;
}

/** One thing the student asked for, matched by any of its spellings or by a course of a subject it names. */
export interface Concept {
  word: string;
  texts: TextMatch[];
  /** Subject groups whose every course counts as a match (psychology → PSYC, PSYO). */
  groups: number[];
  /** A course must match every required concept to rank with the full matches. */
  required: boolean;
}

export interface QueryPlan {
  /** Joined code terms ("cmpt225"); exact ones rank before those that only start the same. */
  codes: { term: number; exact: boolean }[];
  concepts: Concept[];
  /** The student asked for a first course (intro, beginner, 101, first year, calc 1). */
  introductory: boolean;
  /** The part of a sequence asked for ("calc 1" → 1, "calculus ii" → 2), 0 when none. */
  sequence: number;
  /** An institution named in the words ("sfu calculus"). */
  institution?: string;
}

const PREFIX_FACTOR = 0.5;
const NEAR_FACTOR = 0.6;
const BROADER_FACTOR = 0.6;
const MAX_PREFIX_TERMS = 200;
const CODE_WORD = /^([a-z]{2,5})(\d{1,4}[a-z]?)$/;
const NUMBER = /^\d{1,4}[a-z]?$/;

/**
 * Reads a query the way a student means it: course codes typed any way ("cmpt225", "CPSC 1150",
 * "cpsc 31"), shorthand and synonyms (calc, psych, CS, "learn to code"), the subjects a word names
 * in the catalog, a request for a first course, the part of a sequence, and typos. Nothing here
 * knows a course: every word is looked up in the catalog's own terms and subject names.
 */
export function planQuery(text: string, lexicon: Lexicon, filter: { institution?: string } = {}): QueryPlan | undefined {
  let words = joinPrefixes(wordsOf(text)).slice(0, 32);
  if (!words.length) return undefined;
  const plan: QueryPlan = { codes: [], concepts: [], introductory: false, sequence: 0 };
  // An institution named among other words ("econ 101 sfu") narrows the search, wherever it is typed.
  const named = words.length > 1 ? words.findIndex((word) => lexicon.institutionNamed(word)) : -1;
  if (named >= 0) {
    plan.institution = lexicon.institutionNamed(words[named]!);
    words = words.filter((_, i) => i !== named);
  }
  // A code is read as one only where the search looks: "econ 101" at SFU (no ECON 101) is an introductory economics course.
  const where = filter.institution ?? plan.institution;
  const phrases: { start: number; end: number; name: string }[] = [];
  const requests: Concept[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    const pair = next === undefined ? undefined : `${word} ${next}`;
    const last = i === words.length - 1;
    if (next !== undefined && NUMBER.test(next) && readCode(word, next, lexicon, plan, where)) {
      i++;
      continue;
    }
    const joined = CODE_WORD.exec(word);
    if (joined && readCode(joined[1]!, joined[2]!, lexicon, plan, where)) continue;
    if (pair && INTRODUCTORY_PAIRS.has(pair)) {
      plan.introductory = true;
      i++;
      continue;
    }
    if (pair && EXPANSIONS[pair]) {
      addMeaning(plan, phrases, pair, EXPANSIONS[pair]!, lexicon, { required: true, last: i + 1 === words.length - 1 });
      i++;
      continue;
    }
    const sequence = SEQUENCE[word];
    if (sequence && plan.concepts.length && i > 0) {
      plan.sequence = sequence;
      if (sequence === 1) plan.introductory = true;
      continue;
    }
    const previous = plan.concepts[plan.concepts.length - 1];
    if (FIELD.has(word) && previous?.required && previous.groups.length) {
      // "political science", "gender studies": the field of the subject just named.
      plan.concepts.push({ word, texts: textsOf([word], lexicon), groups: previous.groups, required: false });
      continue;
    }
    if (INTRODUCTORY.has(word) || word === 'learn') plan.introductory = true;
    if (INTRODUCTORY.has(word) || FILLER.has(word)) {
      // What the request asks (a first course) is the plan's; the words themselves are searched for
      // only when nothing else is asked ("intro"), a first course's title being read from its traits.
      const spellings = INTRODUCTORY_ONLY.has(word) ? ['intro', 'introduction', 'introductory', word] : [word];
      requests.push({ word, texts: textsOf(spellings, lexicon), groups: [], required: true });
      continue;
    }
    addMeaning(plan, phrases, word, EXPANSIONS[word] ?? [word], lexicon, { required: true, last });
  }
  // Searched for when nothing else is asked, or when a word matches nothing (the courses matching
  // some of the words are then all there is to show).
  if (!plan.concepts.some((c) => c.required) || plan.concepts.some((c) => c.required && !c.texts.length && !c.groups.length)) {
    plan.concepts.unshift(...requests);
    for (const phrase of phrases) [phrase.start, phrase.end] = [phrase.start + requests.length, phrase.end + requests.length];
  }
  // Words typed next to each other that the catalog names a subject by ("computer science") count
  // for that subject together, as the phrases the shorthand expanded to do.
  const concepts = plan.concepts;
  for (let i = 0; i + 1 < concepts.length; i++) phrases.push({ start: i, end: i + 2, name: `${concepts[i]!.word} ${concepts[i + 1]!.word}` });
  for (const { start, end, name } of phrases) {
    const named = lexicon.subjectsNamed(name);
    if (!named.length) continue;
    for (const concept of concepts.slice(start, end)) concept.groups = [...new Set([...concept.groups, ...named])];
  }
  // A broader reading of one word that another word asks for outright is that word's, not both.
  const asked = new Set(concepts.flatMap((c) => c.texts.filter((t) => !t.broader).map((t) => t.term)));
  for (const concept of concepts) concept.texts = concept.texts.filter((t) => !t.broader || !asked.has(t.term));
  // A query that only names a subject ("psychology", "econ", "comp sci") asks where the subject starts.
  const required = concepts.filter((c) => c.required);
  if (!plan.codes.length && required.length === 1 && required[0]!.groups.length) plan.introductory = true;
  return plan;
}

/** A subject word and a number that is a course code, or its start, of some course (at the institution searched): its code terms. */
function readCode(subject: string, number: string, lexicon: Lexicon, plan: QueryPlan, institution: string | undefined): boolean {
  // After shorthand, one digit is a part ("cs 1", "chem 2"), not the start of every 100- or 200-level code ("cpsc 2").
  if (!lexicon.subjectsCoded(subject).length || (/^\d$/.test(number) && EXPANSIONS[subject])) return false;
  const joined = `${subject}${number}`;
  const exact = lexicon.termIndex(joined);
  const codes = [...(exact >= 0 ? [{ term: exact, exact: true }] : []), ...lexicon.termsStartingWith(joined, MAX_PREFIX_TERMS).map((term) => ({ term, exact: false }))].filter(({ term }) =>
    lexicon.isCourseCode(term, institution),
  );
  plan.codes.push(...codes);
  return codes.length > 0;
}

/**
 * A word (or pair) and what it may mean. One meaning of several words ("cs" → "computer science")
 * becomes a concept per word, each satisfied by the subjects the phrase names; several one-word
 * meanings ("comp" → computer, computing) are alternatives of one concept.
 */
function addMeaning(plan: QueryPlan, phrases: { start: number; end: number; name: string }[], word: string, meanings: readonly string[], lexicon: Lexicon, options: { required: boolean; last: boolean }): void {
  const expanded = meanings.length !== 1 || meanings[0] !== word;
  if (meanings.length === 1 && meanings[0]!.includes(' ')) {
    const parts = meanings[0]!.split(' ');
    phrases.push({ start: plan.concepts.length, end: plan.concepts.length + parts.length, name: meanings[0]! });
    for (const part of parts) {
      const previous = plan.concepts[plan.concepts.length - 1];
      const field = FIELD.has(part) && part !== parts[0] && previous?.groups.length;
      plan.concepts.push({ word: part, texts: textsOf([part], lexicon), groups: field ? previous.groups : [...lexicon.subjectsNamed(part)], required: options.required && !field });
    }
    return;
  }
  const spellings = expanded && lexicon.termIndex(termOf(word)) >= 0 && !lexicon.subjectsCoded(word).length ? [word, ...meanings] : [...meanings];
  const texts = textsOf(spellings, lexicon);
  for (const broader of textsOf(BROADER[word] ?? [], lexicon)) if (!texts.some((t) => t.term === broader.term)) texts.push({ term: broader.term, factor: BROADER_FACTOR * broader.factor, broader: true });
  // A subject code typed alone reads as that subject, unless what the shorthand means names another
  // subject of that institution (UVic's CS is Canadian Studies; "cs" means computer science, CSC).
  const named = meanings.flatMap((m) => lexicon.subjectsNamed(m));
  const elsewhere = new Set(named.map((group) => lexicon.institutionOfGroup(group)));
  const coded = lexicon.subjectsCoded(word).filter((group) => !expanded || !elsewhere.has(lexicon.institutionOfGroup(group)));
  const groups = [...new Set([...named, ...coded])];
  if (!texts.length && !groups.length && !expanded) {
    // Unknown: being typed (the last word), or misspelt.
    const completions = options.last && word.length >= 3 ? lexicon.termsStartingWith(word, MAX_PREFIX_TERMS) : [];
    if (completions.length) texts.push(...completions.map((term) => ({ term, factor: PREFIX_FACTOR })));
    else if (word.length >= 4 && !/\d/.test(word)) {
      const near = lexicon.nearestTerms(termOf(word), word.length);
      texts.push(...near.map((term) => ({ term, factor: NEAR_FACTOR })));
      groups.push(...new Set(near.flatMap((term) => lexicon.subjectsNamed(lexicon.wordOf(term)))));
    }
  }
  plan.concepts.push({ word: meanings.length === 1 ? meanings[0]! : word, texts, groups, required: options.required });
}

/**
 * The terms of these spellings, each once: the index term (singular) and, where it differs and is a
 * term too, the word as typed (a subject code such as "cmns" is indexed as typed).
 */
function textsOf(spellings: readonly string[], lexicon: Lexicon): TextMatch[] {
  const found = new Set<number>();
  for (const spelling of spellings) {
    for (const word of spelling === termOf(spelling) ? [spelling] : [termOf(spelling), spelling]) {
      const term = lexicon.termIndex(word);
      if (term >= 0) found.add(term);
    }
  }
  return [...found].map((term) => ({ term, factor: 1 }));
}
