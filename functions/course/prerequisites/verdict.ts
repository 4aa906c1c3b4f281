import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { isFailingGrade, meetsGrade } from './grades.js';
import type { CheckResult, CompletedCourse } from './check.js';
import type { RequirementNode } from './tree.js';

/**
 * The prerequisite check as a student reads it: one or two short sentences (at most 160 characters,
 * never a bracket inside a bracket) and, apart from them, what is still needed on the shortest way to
 * meeting the requirement, the grades that decide it, and what cannot be checked here.
 *
 * The way is chosen by cost: the fewest courses still to take, then the fewest conditions to rely
 * on, then the fewest grades to confirm. A course done without a grade counts, with its minimum to
 * confirm ("met if your grades are at least C-"), rather than making the whole answer unknown.
 */

export const VERDICT_LIMIT = 160;

type VerdictStatus = 'met' | 'met-if-grades' | 'not-met' | 'cannot-check';

interface Needed {
  /** A flat phrase: "one of CMPT 125, CMPT 129 or CMPT 135, with C- or better". */
  text: string;
  /** The course codes it names. */
  courses: string[];
}

export interface Verdict {
  status: VerdictStatus;
  verdict: string;
  stillNeeded: Needed[];
  gradesToConfirm: { course: string; minGrade: string }[];
  cannotCheck: string[];
}

interface Way {
  /** Courses still to take on this way. */
  courses: number;
  needed: RequirementNode[];
  grades: { course: string; minGrade: string }[];
  conditions: string[];
}

interface Record {
  completed: Map<string, CompletedCourse>;
  concurrent: Set<string>;
  /** Conditions may not be relied on (the way without them, for "otherwise you still need …"). */
  coursesOnly: boolean;
}

const normalize = (code: string) => normalizeCourseCode(code) ?? code.trim().toUpperCase();
const DONE: Way = { courses: 0, needed: [], grades: [], conditions: [] };
const BLOCKED: Way = { courses: Number.POSITIVE_INFINITY, needed: [], grades: [], conditions: [] };

const cost = (way: Way) => [way.courses, way.conditions.length, way.grades.length] as const;
function cheaper(a: Way, b: Way): number {
  const [x, y] = [cost(a), cost(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

function add(ways: Way[]): Way {
  return ways.reduce(
    (sum, way) => ({
      courses: sum.courses + way.courses,
      needed: [...sum.needed, ...way.needed],
      grades: [...sum.grades, ...way.grades],
      conditions: [...sum.conditions, ...way.conditions],
    }),
    DONE,
  );
}

function cheapest(node: RequirementNode, record: Record): Way {
  switch (node.type) {
    case 'course':
      return courseWay(node, record);
    case 'condition':
    case 'unparsed':
      return record.coursesOnly ? BLOCKED : { ...DONE, conditions: [node.text] };
    case 'all':
      return add(node.children.map((child) => cheapest(child, record)));
    case 'any': {
      const needed = Math.min(node.count ?? 1, node.children.length);
      const ways = node.children.map((child, index) => ({ child, index, way: cheapest(child, record) })).sort((a, b) => cheaper(a.way, b.way) || a.index - b.index);
      const chosen = ways.slice(0, needed);
      const way = add(chosen.map((c) => c.way));
      if (way.courses === 0 || !Number.isFinite(way.courses)) return way;
      // Alternatives that each cost one course and nothing else are offered together: "one of A, B or C".
      const met = chosen.filter((c) => c.way.courses === 0).length;
      const single = ways.filter((c) => c.way.courses === 1 && c.way.needed.length === 1 && c.way.needed[0]!.type === 'course' && c.way.conditions.length === 0);
      if (chosen.every((c) => c.way.courses <= 1) && single.length > needed - met) {
        const others = chosen.filter((c) => c.way.courses === 0);
        const choice: RequirementNode = needed - met > 1 ? { type: 'any', count: needed - met, children: single.map((c) => c.way.needed[0]!) } : { type: 'any', children: single.map((c) => c.way.needed[0]!) };
        return { ...add(others.map((c) => c.way)), courses: needed - met, needed: [choice] };
      }
      return way;
    }
  }
}

function courseWay(node: RequirementNode & { type: 'course' }, record: Record): Way {
  const take: Way = { ...DONE, courses: 1, needed: [node] };
  const done = record.completed.get(normalize(node.code));
  if (done) {
    if (isFailingGrade(done.grade)) return take;
    if (!node.minGrade) return DONE;
    if (!done.grade) return { ...DONE, grades: [{ course: node.code, minGrade: node.minGrade }] };
    const { result } = meetsGrade(done.grade, node.minGrade);
    return result === 'yes' ? DONE : result === 'no' ? take : { ...DONE, grades: [{ course: node.code, minGrade: node.minGrade }] };
  }
  if (node.concurrent && record.concurrent.has(normalize(node.code))) return DONE;
  return take;
}

/** The verdict for a tree and a record, agreeing with the check's own answer (`check.satisfied`). */
export function prerequisiteVerdict(tree: RequirementNode, completed: CompletedCourse[], check: CheckResult, options: { concurrent?: string[] } = {}): Verdict {
  const record: Record = {
    completed: new Map(completed.map((c) => [normalize(c.code), c])),
    concurrent: new Set((options.concurrent ?? []).map(normalize)),
    coursesOnly: false,
  };
  if ((tree.type === 'all' || tree.type === 'any') && tree.children.length === 0) {
    return { status: 'met', verdict: 'This course has no prerequisites.', stillNeeded: [], gradesToConfirm: [], cannotCheck: [] };
  }
  const best = cheapest(tree, record);
  const stillNeeded = best.needed.map(needed);
  const grades = uniqueGrades(best.grades);
  const cannotCheck = [...new Set(best.conditions)];
  if (check.satisfied === true) return { status: 'met', verdict: 'You meet these prerequisites.', stillNeeded: [], gradesToConfirm: [], cannotCheck: [] };
  if (check.satisfied === false || best.courses > 0) {
    const first = notMetSentence(best);
    const second = grades.length ? gradeSentence(grades, 'count') : cannotCheck.length ? `${capital(count(cannotCheck.length, 'condition'))} cannot be checked here.` : '';
    return { status: 'not-met', verdict: fit(first, second), stillNeeded, gradesToConfirm: grades, cannotCheck };
  }
  if (!cannotCheck.length) return { status: 'met-if-grades', verdict: metIfSentence(grades), stillNeeded: [], gradesToConfirm: grades, cannotCheck };
  // Conditions decide it: met only if they hold, else the courses the way without them needs.
  const withoutConditions = cheapest(tree, { ...record, coursesOnly: true });
  const condition = cannotCheck.length === 1 ? lowerFirst(shorten(cannotCheck[0]!, 70)) : `${count(cannotCheck.length, 'condition')} listed below`;
  const alternative = Number.isFinite(withoutConditions.courses) && withoutConditions.courses > 0;
  const minimum = grades.length ? grades[0]!.minGrade : undefined;
  const first = alternative
    ? `Met only with ${condition}, which cannot be checked here.`
    : completed.length && courseCount(tree) > 0
      ? `Your courses count${minimum ? ` if your grades are at least ${minimum}` : ''}; ${condition} cannot be checked here.`
      : `This depends on ${condition}, which cannot be checked here.`;
  const otherwise = alternative ? `Otherwise you still need ${shortNeed(withoutConditions)}.` : '';
  return {
    status: 'cannot-check',
    verdict: fit(first, otherwise, `${capital(count(cannotCheck.length, 'condition'))} cannot be checked here; see below.`),
    stillNeeded,
    gradesToConfirm: grades,
    cannotCheck,
  };
}

const courseCount = (node: RequirementNode): number => (node.type === 'course' ? 1 : node.type === 'all' || node.type === 'any' ? node.children.reduce((n, c) => n + courseCount(c), 0) : 0);

/** "Open only to …" inside a sentence reads "open only to …"; "CGPA of 2.50" keeps its capitals. */
const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/** The first sentence that fits, joined with the second when both fit together. */
function fit(first: string, second: string, fallback = 'Not met yet: what is still needed is listed below.'): string {
  const both = second ? `${first} ${second}` : first;
  if (both.length <= VERDICT_LIMIT) return both;
  if (first.length <= VERDICT_LIMIT) return first;
  return fallback;
}

function notMetSentence(way: Way): string {
  return `Not met yet: you still need ${shortNeed(way)}.`;
}

/** What is needed in a few words: the phrase itself when short, else how many courses. */
function shortNeed(way: Way): string {
  const joined = phrase(way.needed.length === 1 ? way.needed[0]! : { type: 'all', children: way.needed });
  if (joined.length <= 100 && !joined.includes(';')) return joined;
  return `${count(way.courses, 'more course')}, listed below`;
}

function gradeSentence(grades: { course: string; minGrade: string }[], verb: 'count'): string {
  const minimums = [...new Set(grades.map((g) => g.minGrade))];
  const courses = list(grades.map((g) => g.course), 'and');
  if (minimums.length > 1 || courses.length > 60) return 'Add your grades to confirm the minimums.';
  return grades.length === 1 ? `${courses} ${verb}s if your grade is at least ${minimums[0]}.` : `${courses} ${verb} if your grades are at least ${minimums[0]}.`;
}

function metIfSentence(grades: { course: string; minGrade: string }[]): string {
  const byMinimum = new Map<string, string[]>();
  for (const g of grades) byMinimum.set(g.minGrade, [...(byMinimum.get(g.minGrade) ?? []), g.course]);
  const parts = [...byMinimum].map(([minimum, courses]) => `${minimum} in ${list(courses, 'and')}`);
  const sentence = `Met if your ${grades.length === 1 ? 'grade is' : 'grades are'} at least ${list(parts, 'and')}.`;
  if (sentence.length <= VERDICT_LIMIT) return sentence;
  const minimums = [...byMinimum.keys()];
  return minimums.length === 1 ? `Met if your grades are at least ${minimums[0]}; the courses are listed below.` : 'Met if your grades meet the minimums listed below.';
}

function uniqueGrades(grades: { course: string; minGrade: string }[]) {
  return [...new Map(grades.map((g) => [g.course, g])).values()];
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];
const count = (n: number, noun: string) => `${n < NUMBER_WORDS.length ? NUMBER_WORDS[n] : n} ${noun}${n === 1 ? '' : 's'}`;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** "A", "A and B", "A, B and C" (or "or"). */
function list(items: string[], word: 'and' | 'or'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;
}

function codesOf(node: RequirementNode): string[] {
  if (node.type === 'course') return [node.code];
  if (node.type === 'all' || node.type === 'any') return node.children.flatMap(codesOf);
  return [];
}

function gradesOf(node: RequirementNode): (string | undefined)[] {
  if (node.type === 'course') return [node.minGrade];
  if (node.type === 'all' || node.type === 'any') return node.children.flatMap(gradesOf);
  return [];
}

function needed(node: RequirementNode): Needed {
  const text = phrase(node);
  return { text: capital(text), courses: [...new Set(codesOf(node))] };
}

/**
 * A requirement as words, without brackets: "CMPT 125", "one of CMPT 125, CMPT 129 or CMPT 135",
 * "either MACM 101 and one of CMPT 125 or CMPT 135; or ENSC 251 and ENSC 252"; a minimum grade
 * shared by every course is said once, at the end.
 */
export function phrase(node: RequirementNode): string {
  const minimums = [...new Set(gradesOf(node))];
  const shared = minimums.length === 1 && minimums[0] ? minimums[0] : undefined;
  const body = words(node, shared === undefined);
  return shared ? `${body}, with ${shared} or better` : body;
}

function words(node: RequirementNode, eachGrade: boolean, depth = 0): string {
  switch (node.type) {
    case 'course':
      return `${node.code}${eachGrade && node.minGrade ? ` with ${node.minGrade}` : ''}${node.concurrent ? ' (may be taken at the same time)' : ''}`;
    case 'condition':
    case 'unparsed':
      return shorten(node.text, 80);
    case 'all': {
      const parts = node.children.map((child) => words(child, eachGrade, depth + 1));
      return list(parts, 'and');
    }
    case 'any': {
      const k = node.count ?? 1;
      const lead = `${k < NUMBER_WORDS.length ? NUMBER_WORDS[k] : k} of`;
      const flat = node.children.every((child) => child.type === 'course' || child.type === 'condition' || child.type === 'unparsed');
      const parts = node.children.map((child) => words(child, eachGrade, depth + 1));
      if (flat) return `${lead} ${list(parts, 'or')}`;
      // Groups among the alternatives: told apart by semicolons, never by brackets inside brackets.
      return k === 1 ? `either ${parts.join('; or ')}` : `${lead} these: ${parts.join('; ')}`;
    }
  }
}
