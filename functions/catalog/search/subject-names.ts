import { FIELD, fieldIds, type CatalogText } from './catalog-text.js';
import { FIELD as FIELD_WORDS } from './student-vocabulary.js';

/** Per institution, per subject code: the terms and term pairs (tokens.ts termOf) the catalog names that subject by. */
export type SubjectNames = Record<string, Record<string, string[]>>;

export interface NameSource {
  institution: string;
  subject: string;
  title: string | null;
  description: string | null;
}

/** A name must be used by this many of the subject's courses… */
const MIN_COURSES = 2;
/** …and hold this share of the institution's courses using it… */
const MIN_SHARE = 0.25;
/**
 * …and, for a single word or a two-letter code's initials (weaker evidence than a pair the code
 * spells), be common within the subject or nearly the subject's own word.
 */
const MIN_COVERAGE = 0.1;
const OWN_SHARE = 0.5;
const OWN_COURSES = 3;
/**
 * A name most of the subject's own courses use is its name even where the word is common across the
 * institution (UBC's ECON says "economic" in two thirds of its courses, a quarter of UBC's uses).
 */
const MOST_COURSES = 0.5;
const MOST_COURSES_SHARE = 0.15;

/**
 * The names of each subject, read from the catalog: a word or adjacent word pair of the subject's
 * titles and descriptions that its code abbreviates (CMPT ← "computing", CPSC ← "computer science",
 * PSYO ← "psychology", AI ← "artificial intelligence"), used by at least two of its courses, and used
 * more by this subject than by any other whose code abbreviates it too, with a quarter of the
 * institution's uses. So UVic's CS (Canadian Studies) is never named "computer science" (its courses
 * never say it) while UVic's CSC is; no institution's codes are listed anywhere.
 */
export function deriveSubjectNames(courses: NameSource[], text: CatalogText): SubjectNames {
  const { vocabulary } = text;
  const size = vocabulary.length;
  // A name as a number: a term id, or a pair of them (namesIn).
  const nameOf = (key: number) => (key < size ? vocabulary[key]! : `${vocabulary[Math.floor(key / size) - 1]!} ${vocabulary[key % size]!}`);
  const perSubject = new Map<string, Map<number, number>>();
  const subjectSize = new Map<string, number>();
  const checked = new Map<string, Map<number, boolean>>();
  courses.forEach((course, c) => {
    const key = `${course.institution}\u0000${course.subject}`;
    subjectSize.set(key, (subjectSize.get(key) ?? 0) + 1);
    const code = letters(course.subject);
    if (code.length < 2) return;
    let counts = perSubject.get(key);
    if (!counts) perSubject.set(key, (counts = new Map()));
    let known = checked.get(code);
    if (!known) checked.set(code, (known = new Map()));
    // Most words do not start with the code's letter: that is checked before a name is built.
    for (const name of namesIn(text, c, (first) => vocabulary[first]![0] === code[0])) {
      let spelled = known.get(name);
      if (spelled === undefined) known.set(name, (spelled = abbreviates(code, nameOf(name))));
      if (spelled) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  });

  // How many of each institution's courses use each name that is some subject's candidate.
  const candidates = new Map<string, Set<number>>();
  for (const [key, counts] of perSubject) {
    const institution = key.split('\u0000')[0]!;
    let set = candidates.get(institution);
    if (!set) candidates.set(institution, (set = new Set()));
    for (const [name, count] of counts) if (count >= MIN_COURSES) set.add(name);
  }
  const used = new Map<string, Map<number, number>>();
  courses.forEach((course, c) => {
    const set = candidates.get(course.institution);
    if (!set?.size) return;
    let counts = used.get(course.institution);
    if (!counts) used.set(course.institution, (counts = new Map()));
    for (const name of namesIn(text, c, () => true)) if (set.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  });

  // The subject abbreviating a name that uses it most keeps it.
  const best = new Map<string, { key: string; count: number }>();
  for (const [key, counts] of perSubject) {
    const [institution, subject] = key.split('\u0000') as [string, string];
    for (const [name, count] of counts) {
      if (count < MIN_COURSES) continue;
      const share = count / used.get(institution)!.get(name)!;
      const coverage = count / subjectSize.get(key)!;
      const spelled = name >= size && letters(subject).length > 2;
      if (share < MIN_SHARE && (coverage < MOST_COURSES || share < MOST_COURSES_SHARE)) continue;
      if (!spelled && coverage < MIN_COVERAGE && (share < OWN_SHARE || count < OWN_COURSES)) continue;
      const slot = `${institution}\u0000${nameOf(name)}`;
      const current = best.get(slot);
      if (!current || count > current.count) best.set(slot, { key, count });
    }
  }
  const names: SubjectNames = {};
  for (const key of subjectSize.keys()) {
    const [institution, subject] = key.split('\u0000') as [string, string];
    (names[institution] ??= {})[subject] = [];
  }
  for (const [slot, { key }] of best) {
    const [institution, subject] = key.split('\u0000') as [string, string];
    names[institution]![subject]!.push(slot.split('\u0000')[1]!);
  }
  for (const bySubject of Object.values(names)) for (const list of Object.values(bySubject)) list.sort();
  return names;
}

/**
 * The distinct terms and adjacent term pairs of a course's title and of its description whose first
 * term passes `starts`, as numbers: a term id, or a pair (a + 1) × vocabulary size + b.
 */
function namesIn(text: CatalogText, c: number, starts: (first: number) => boolean): Set<number> {
  const size = text.vocabulary.length;
  const found = new Set<number>();
  const title = [...fieldIds(text, c, FIELD.titleHead), ...fieldIds(text, c, FIELD.titleTail)];
  for (const ids of [title, fieldIds(text, c, FIELD.description)]) {
    for (let i = 0; i < ids.length; i++) {
      const first = ids[i]!;
      if (!starts(first)) continue;
      found.add(first);
      if (i + 1 < ids.length) found.add((first + 1) * size + ids[i + 1]!);
    }
  }
  return found;
}

/**
 * Whether a subject code (its letters, lower case) abbreviates a name. A word: the code is an in-order
 * subsequence of it from its first letter (codes of three letters or more: PSYO ← "psychology"). A
 * pair the first word does not already cover: the code splits into a subsequence of the first word
 * from its first letter and one of the second from its first letter (CPSC ← "computer science",
 * never BUS ← "building trust"); a pair naming a field ("political science", "gender studies") also
 * when the first word covers the code (POL); a two-letter code abbreviates only a pair by its initials.
 */
export function abbreviates(code: string, name: string): boolean {
  if (code[0] !== name[0]) return false;
  const space = name.indexOf(' ');
  if (space < 0) return code.length >= 3 && /^[a-z]+$/.test(name) && subsequence(code, name);
  const [first, second] = [name.slice(0, space), name.slice(space + 1)];
  if (first.length < 2 || !/^[a-z]+$/.test(first) || !/^[a-z]+$/.test(second)) return false;
  if (code.length === 2) return code[1] === second[0];
  if (subsequence(code, first)) return FIELD_WORDS.has(second);
  for (let split = 1; split < code.length; split++) {
    if (code[split] === second[0] && subsequence(code.slice(0, split), first) && subsequence(code.slice(split), second)) return true;
  }
  return false;
}

function subsequence(code: string, text: string): boolean {
  let at = 0;
  for (let i = 0; i < text.length && at < code.length; i++) if (text[i] === code[at]) at++;
  return at === code.length;
}

function letters(subject: string): string {
  return subject.toLowerCase().replace(/[^a-z]/g, '');
}
