import { termsOf } from './tokens.js';

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
 * The names of each subject, read from the catalog: a word or adjacent word pair of the subject's
 * titles and descriptions that its code abbreviates (CMPT ← "computing", CPSC ← "computer science",
 * PSYO ← "psychology", AI ← "artificial intelligence"), used by at least two of its courses, and used
 * more by this subject than by any other whose code abbreviates it too, with a quarter of the
 * institution's uses. So UVic's CS (Canadian Studies) is never named "computer science" (its courses
 * never say it) while UVic's CSC is; no institution's codes are listed anywhere.
 */
export function deriveSubjectNames(courses: NameSource[]): SubjectNames {
  const perSubject = new Map<string, Map<string, number>>();
  const subjectSize = new Map<string, number>();
  for (const course of courses) {
    const key = `${course.institution}\u0000${course.subject}`;
    subjectSize.set(key, (subjectSize.get(key) ?? 0) + 1);
    const code = letters(course.subject);
    if (code.length < 2) continue;
    let counts = perSubject.get(key);
    if (!counts) perSubject.set(key, (counts = new Map()));
    for (const name of candidatesOf(course, (name) => abbreviates(code, name))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }

  // How many of each institution's courses use each name that is some subject's candidate.
  const candidates = new Map<string, Set<string>>();
  for (const [key, counts] of perSubject) {
    const institution = key.split('\u0000')[0]!;
    let set = candidates.get(institution);
    if (!set) candidates.set(institution, (set = new Set()));
    for (const [name, count] of counts) if (count >= MIN_COURSES) set.add(name);
  }
  const used = new Map<string, number>();
  for (const course of courses) {
    const set = candidates.get(course.institution);
    if (!set?.size) continue;
    for (const name of candidatesOf(course, (name) => set.has(name))) used.set(`${course.institution}\u0000${name}`, (used.get(`${course.institution}\u0000${name}`) ?? 0) + 1);
  }

  // The subject abbreviating a name that uses it most keeps it.
  const best = new Map<string, { key: string; count: number }>();
  for (const [key, counts] of perSubject) {
    const institution = key.split('\u0000')[0]!;
    for (const [name, count] of counts) {
      if (count < MIN_COURSES) continue;
      const share = count / used.get(`${institution}\u0000${name}`)!;
      const coverage = count / subjectSize.get(key)!;
      const spelled = name.includes(' ') && letters(key.split('\u0000')[1]!).length > 2;
      if (share < MIN_SHARE) continue;
      if (!spelled && coverage < MIN_COVERAGE && (share < OWN_SHARE || count < OWN_COURSES)) continue;
      const slot = `${institution}\u0000${name}`;
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

/** Distinct words and adjacent word pairs of a course's title and of its description that pass `keep`. */
function candidatesOf(course: NameSource, keep: (name: string) => boolean): Set<string> {
  const found = new Set<string>();
  for (const text of [course.title, course.description]) {
    if (!text) continue;
    const words = termsOf(text);
    words.forEach((word, i) => {
      if (keep(word)) found.add(word);
      const next = words[i + 1];
      if (next !== undefined) {
        const pair = `${word} ${next}`;
        if (keep(pair)) found.add(pair);
      }
    });
  }
  return found;
}

/**
 * Whether a subject code (its letters, lower case) abbreviates a name. A word: the code is an in-order
 * subsequence of it from its first letter (codes of three letters or more: PSYO ← "psychology"). A
 * pair the first word does not already cover: the code splits into a subsequence of the first word
 * from its first letter and one of the second from its first letter (CPSC ← "computer science",
 * never BUS ← "building trust"); a two-letter code abbreviates only a pair by its initials.
 */
export function abbreviates(code: string, name: string): boolean {
  if (code[0] !== name[0]) return false;
  const space = name.indexOf(' ');
  if (space < 0) return code.length >= 3 && /^[a-z]+$/.test(name) && subsequence(code, name);
  const [first, second] = [name.slice(0, space), name.slice(space + 1)];
  if (first.length < 2 || !/^[a-z]+$/.test(first) || !/^[a-z]+$/.test(second)) return false;
  if (code.length === 2) return code[1] === second[0];
  if (subsequence(code, first)) return false;
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
