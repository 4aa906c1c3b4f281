import type { ConditionStatus, StudentFacts, TransferCondition } from '../rule-text/conditions.js';

/** Abbreviations students and the guide use for programs, spelled out so "AA" and "Associate of Arts" are one program. */
const ABBREVIATIONS: Record<string, string> = {
  aa: 'associate arts',
  as: 'associate science',
  ba: 'bachelor arts',
  bsc: 'bachelor science',
  bcom: 'bachelor commerce',
  bcomm: 'bachelor commerce',
  bba: 'bachelor business administration',
  bbus: 'bachelor business',
  beng: 'bachelor engineering',
  basc: 'bachelor applied science',
  bfa: 'bachelor fine arts',
  bed: 'bachelor education',
  bsn: 'bachelor science nursing',
  babc: 'bachelor arts business communication',
  bcmb: 'biochemistry molecular biology',
  cpsc: 'computer science',
  cmpt: 'computer science',
  biol: 'biology',
  math: 'mathematics',
  stat: 'statistics',
  econ: 'economics',
  psyc: 'psychology',
  comm: 'commerce',
};
const NOISE = new Set(['of', 'in', 'and', 'the', 'a', 'an', 'for', 'program', 'programs', 'major', 'majors', 'minor', 'honours', 'students', 'student', 'faculty', 'faculties', 'school', 'department', 'departments', 'degree', 'degrees', 'within', 'credit', 'only']);
const STEM: Record<string, string> = { sciences: 'science', maths: 'mathematics', engineer: 'engineering', managment: 'management' };

function programWords(name: string): string[] {
  const words = name
    .toLowerCase()
    .replace(/\b([a-z])\.(?=[a-z]\.?)/g, '$1') // B.Com → bcom, B.Sc. → bsc
    .replace(/\./g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return [...new Set(words.flatMap((w) => (ABBREVIATIONS[w] ?? STEM[w] ?? w).split(' ')).filter((w) => !NOISE.has(w)))];
}

/**
 * Whether the student's program is the one named: every word of the named program in the student's
 * (after spelling out abbreviations: "AA" is "Associate of Arts", "B.Com" "Bachelor of Commerce")
 * holds; sharing some words but not all (student "Engineering", named "Mechanical Engineering") is
 * not known; sharing none fails.
 */
function programStatus(student: string, named: string): ConditionStatus {
  const [mine, theirs] = [programWords(student), programWords(named)];
  if (!theirs.length || !mine.length) return 'unknown';
  const shared = theirs.filter((w) => mine.includes(w));
  if (shared.length === theirs.length) return 'holds';
  // Initials of the student's program name the program ("NCBNP" for a program spelled out in full).
  const acronym = named.trim().toLowerCase();
  const initials = [student.toLowerCase().split(/[^a-z]+/), programWords(student)].map((words) => words.filter((w) => w && !['of', 'and', 'in', 'the'].includes(w)).map((w) => w[0]).join(''));
  if (/^[a-z]{2,6}$/i.test(named.trim()) && initials.includes(acronym)) return 'holds';
  // Sharing only the kind of credential ("Bachelor of Science" and "Bachelor of Engineering") is sharing nothing.
  return shared.some((w) => !CREDENTIALS.has(w)) ? 'unknown' : 'fails';
}

const CREDENTIALS = new Set(['bachelor', 'associate', 'master', 'diploma', 'certificate', 'doctor', 'applied']);

function anyProgram(student: string, condition: TransferCondition): ConditionStatus {
  const statuses = (condition.programs ?? [condition.program ?? '']).map((p) => programStatus(student, p));
  return statuses.includes('holds') ? 'holds' : statuses.includes('unknown') ? 'unknown' : 'fails';
}

const GRADE_ORDER = ['F', 'D', 'D+', 'C-', 'C', 'C+', 'B-', 'B', 'B+', 'A-', 'A', 'A+'];
const negate = (status: ConditionStatus): ConditionStatus => (status === 'holds' ? 'fails' : status === 'fails' ? 'holds' : 'unknown');

/** What else the call said: the sending courses given (for concurrent credit and companions) and the ones this award uses. */
export interface ConditionContext {
  given: Set<string>;
  used: string[];
}

function plain(condition: TransferCondition, facts: StudentFacts, context: ConditionContext): ConditionStatus {
  const has = (codes: string[], within: Set<string>) => (condition.courseMatch === 'any' ? codes.some((c) => within.has(c)) : codes.every((c) => within.has(c)));
  const others = [...context.given].filter((code) => !context.used.includes(code));
  switch (condition.type) {
    case 'prior-credit':
      // Prior credit at the receiver is what the caller says it is: without completedAtTarget it is not known.
      return has(condition.courses ?? [], facts.completedAtTarget) ? 'holds' : 'unknown';
    case 'program':
      return facts.program ? anyProgram(facts.program, condition) : 'unknown';
    case 'not-for-program':
      // A restriction of where the credit counts: it holds unless the student says they are in that program.
      return facts.program && anyProgram(facts.program, condition) === 'holds' ? 'fails' : 'holds';
    case 'minimum-grade': {
      const grades = context.used.map((code) => facts.grades.get(code));
      if (grades.some((g) => g === undefined)) return 'unknown';
      const min = GRADE_ORDER.indexOf(condition.grade!);
      return grades.every((g) => GRADE_ORDER.indexOf(g!.toUpperCase()) >= min) ? 'holds' : 'fails';
    }
    case 'with-course':
      return has(condition.courses ?? [], context.given) ? 'holds' : 'fails';
    case 'taken-alone': {
      // A bundle given whole is not "alone"; with named companions, alone means none of them was given.
      if (context.used.length > 1) return 'holds';
      if (condition.courses?.length) return condition.courses.some((c) => context.given.has(c)) ? 'fails' : 'holds';
      // Nothing else was taken: the course is alone whatever its companions would have been.
      return others.length === 0 ? 'holds' : 'unknown';
    }
    case 'taken-together':
      return context.used.length >= (condition.count ?? 2) ? 'holds' : 'unknown';
    case 'no-credit-with': {
      const subjects = new Set(condition.subjects ?? []);
      const clash = others.some((code) => subjects.has(code.split(' ')[0]!) || (condition.courses ?? []).includes(code)) || [...facts.completedAtTarget].some((code) => subjects.has(code.split(' ')[0]!) || (condition.courses ?? []).includes(code));
      // Credit elsewhere (CHEM 12, a high-school course) is never known, so it cannot be known to hold.
      return clash ? 'fails' : 'unknown';
    }
    default:
      return 'unknown';
  }
}

/** Whether a condition holds for what the caller told us; `unknown` when we were not told. */
export function evaluateCondition(condition: TransferCondition, facts: StudentFacts, context: ConditionContext | string[]): ConditionStatus {
  const ctx = Array.isArray(context) ? { given: new Set(context), used: context } : context;
  if (!condition.negated) return plain(condition, facts, ctx);
  // The main award beside "If already credited for X, credit will be Y": prior credit the caller did not report is taken as absent.
  if (condition.type === 'prior-credit') return condition.courses!.some((c) => facts.completedAtTarget.has(c)) ? 'fails' : 'holds';
  return negate(plain(condition, facts, ctx));
}

/** What the caller could tell us, or the student could do, to make a condition hold. */
export function wouldHoldIf(condition: TransferCondition): string {
  const courses = (condition.courses ?? []).join(condition.courseMatch === 'any' ? ' or ' : ' and ');
  const programs = (condition.programs ?? [condition.program]).join(' or ');
  if (condition.negated) {
    switch (condition.type) {
      case 'prior-credit': return `the student has no credit for ${courses} at the receiving institution (otherwise another award applies)`;
      case 'program': return `the student is not in ${programs} (pass program)`;
      case 'with-course': return `the student has not also taken ${courses}`;
      default: return `"${condition.text}" does not apply; confirm with the receiving institution`;
    }
  }
  switch (condition.type) {
    case 'prior-credit': return `the student already has credit for ${courses} at the receiving institution (pass them in completedAtTarget)`;
    case 'program': return `the student is in or admitted to ${programs} (pass program)`;
    case 'not-for-program': return `the student is not in ${programs}, where this credit does not count`;
    case 'minimum-grade': return `the student earned ${condition.grade} or better in the sending course (pass grades)`;
    case 'recency': return `the course was completed within ${condition.years} years; confirm with the receiving institution`;
    case 'taken-alone': return condition.courses?.length ? `none of ${condition.courses.join(', ')} is also taken` : 'the course is taken on its own, as the condition describes; confirm with the receiving institution';
    case 'taken-together': return `${condition.count} of the listed courses are completed`;
    case 'with-course': return `the student also takes ${courses} (add it to sourceCourses)`;
    case 'no-credit-with': return `the student has no ${[...(condition.courses ?? []), ...(condition.subjects ?? []).map((s) => `other ${s} credit`)].join(' and no ') || 'such credit'}, prior or concurrent; confirm with the receiving institution`;
    default: return `"${condition.text}" is true; confirm with the receiving institution`;
  }
}
