import * as z from 'zod/v4';
import type { AdapterContext, AdapterOutput, CourseFragment, SourceAdapter } from '../../catalog/catalog-model.js';
import type { ConditionCategory, RequirementNode } from '../../catalog/requirement-tree.js';
import { CANONICAL_SUBJECT_SOURCE } from '../../catalog/course-ref.js';
import { RecordError, combine, courseCode, field, mapRecords, provenance, readJson, shape, text } from './shared.js';

/**
 * University of Victoria, from its Kuali catalog (tdgao/uvic-course-map, Dec 2024). Two files, two
 * sources, because each course gets one fragment from each:
 *  - `uvic-requisites` (`courses-prereqs.json`, an object keyed by course id): title, calendar URL,
 *    the Kuali rule as text, and the Kuali rule tree mapped onto the project's requirement tree;
 *  - `uvic-kuali` (`kuali-course-catalog.json`, an array of catalog stubs): title, subject name and
 *    the date the catalog version took effect.
 */
const INSTITUTION = 'uvic';
const COURSE_ID = new RegExp(String.raw`^(${CANONICAL_SUBJECT_SOURCE})(\d{3}[A-Z]?)$`);
const LINKED_COURSE = new RegExp(String.raw`<a [^>]*>\s*(${CANONICAL_SUBJECT_SOURCE})(\d{3}[A-Z]?)\s*<\/a>[^<]*(?:<span[^>]*>\s*\([\d.]+\)\s*<\/span>)?`, 'g');

function uvicCode(id: string): string {
  const match = COURSE_ID.exec(id.trim());
  if (!match) throw new RecordError(`not a UVic course id: "${id}"`);
  return courseCode(match[1]!, match[2]!);
}

function conditionCategory(value: string): ConditionCategory {
  if (/permission|consent|approval/i.test(value)) return 'permission';
  if (/standing/i.test(value)) return 'standing';
  if (/\bGPA\b|grade point/i.test(value)) return 'gpa';
  if (/\bunits?\b/i.test(value)) return 'credits';
  if (/admission|admitted|declared|program|major|honours|minor|registration in|enrolled in/i.test(value)) return 'program';
  return 'other';
}

function condition(value: string): RequirementNode {
  const clean = value.replace(/\s+/g, ' ').trim();
  const category = conditionCategory(clean);
  const number = category === 'credits' || category === 'gpa' ? /(\d+(?:\.\d+)?)/.exec(clean)?.[1] : category === 'standing' ? /\b(first|second|third|fourth|fifth)\b/i.exec(clean)?.[1] : undefined;
  const ordinal: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5 };
  const numeric = number === undefined ? undefined : (ordinal[number.toLowerCase()] ?? Number(number));
  return { type: 'condition', text: clean, category, ...(numeric !== undefined && Number.isFinite(numeric) ? { value: numeric } : {}) };
}

interface Rule {
  kind: 'all' | 'any';
  count?: number;
  minGrade?: string;
  concurrent?: boolean;
  /** Text that comes before the rule ("For Post-diploma students"), or the whole heading of a rule we keep as a condition. */
  prefix?: string;
  /** The heading names units, not courses: kept as one credits condition listing the courses. */
  units?: number;
}

const COUNT = '(all|\\d+|\\s*)';
const HEADINGS: [RegExp, (m: RegExpExecArray) => Rule][] = [
  [new RegExp(`^(.*?)Complete ${COUNT} of(?: the following)?:?$`, 'i'), (m) => countRule(m[2]!, { prefix: m[1] })],
  [new RegExp(`^(.*?)Completed or concurrently enrolled in ${COUNT} of(?: the following)?:?$`, 'i'), (m) => countRule(m[2]!, { prefix: m[1], concurrent: true })],
  [/^(.*?)Earn(?:ed)? a minimum grade of ([A-F][+-]?|\d+%?) in each of(?: the following)?:?$/i, (m) => ({ kind: 'all', prefix: m[1], minGrade: m[2] })],
  [new RegExp(`^(.*?)Earn(?:ed)? a minimum grade of ([A-F][+-]?|\\d+%?) in ${COUNT} of(?: the following)?:?$`, 'i'), (m) => countRule(m[3]!, { prefix: m[1], minGrade: m[2] })],
  [/^(.*?)Complete (\d+(?:\.\d+)?) units from(?: the following)?:?$/i, (m) => ({ kind: 'all', prefix: m[1], units: Number(m[2]) })],
];

function countRule(count: string, rest: Omit<Rule, 'kind'>): Rule {
  const trimmed = count.trim().toLowerCase();
  if (trimmed === 'all') return { kind: 'all', ...rest };
  const n = Number(trimmed || '1');
  return { kind: 'any', ...(n > 1 ? { count: n } : {}), ...rest };
}

function ruleOf(heading: string): Rule | undefined {
  const clean = heading.replace(/\s+/g, ' ').trim();
  for (const [pattern, make] of HEADINGS) {
    const match = pattern.exec(clean);
    if (match) {
      const rule = make(match);
      return { ...rule, prefix: text(rule.prefix?.replace(/[:,]\s*$/, '')) };
    }
  }
  return undefined;
}

function withCourseFlags(node: RequirementNode, rule: Rule): RequirementNode {
  if (node.type !== 'course') return node;
  return { ...node, ...(rule.minGrade && !node.minGrade ? { minGrade: rule.minGrade } : {}), ...(rule.concurrent ? { concurrent: true } : {}) };
}

/**
 * One Kuali rule (`{ heading: children }`, a course id, or free text) as a requirement node.
 * Unknown headings become `unparsed` nodes, never guesses. A free-text child starting "or …"
 * ("or permission of the department.") is an alternative to its siblings, so the group becomes
 * `any(all(siblings), permission)`.
 */
export function kualiNode(raw: unknown): RequirementNode {
  if (typeof raw === 'string') {
    const value = raw.trim();
    if (COURSE_ID.test(value)) return { type: 'course', code: uvicCode(value), institution: INSTITUTION };
    return condition(value);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new RecordError(`unexpected requirement node: ${JSON.stringify(raw)}`);
  const entries = Object.entries(raw as Record<string, unknown>);
  const groups = entries.map(([heading, children]): RequirementNode => {
    if (!Array.isArray(children)) throw new RecordError(`requirement "${heading}" has no list of children`);
    const rule = ruleOf(heading);
    if (!rule) {
      const listed = children.map((child) => (typeof child === 'string' ? child : JSON.stringify(child))).join(', ');
      return { type: 'unparsed', text: `${heading.trim()} ${listed}`.trim() };
    }
    if (rule.units !== undefined) {
      const listed = children.map((child) => (typeof child === 'string' && COURSE_ID.test(child.trim()) ? uvicCode(child) : String(typeof child === 'string' ? child : JSON.stringify(child))));
      return { type: 'condition', text: `${rule.units} units from: ${listed.join(', ')}`, category: 'credits', value: rule.units };
    }
    const alternatives: RequirementNode[] = [];
    const required: RequirementNode[] = [];
    for (const child of children) {
      if (typeof child === 'string' && /^or\s/i.test(child.trim()) && !COURSE_ID.test(child.trim())) alternatives.push(condition(child.trim().replace(/^or\s+/i, '')));
      else required.push(withCourseFlags(kualiNode(child), rule));
    }
    let node: RequirementNode =
      rule.kind === 'all' ? { type: 'all', children: required } : { type: 'any', children: required, ...(rule.count ? { count: rule.count } : {}) };
    if (rule.prefix) node = { type: 'all', children: [{ type: 'condition', text: rule.prefix, category: conditionCategory(rule.prefix) === 'other' ? 'program' : conditionCategory(rule.prefix) }, node] };
    if (alternatives.length) node = { type: 'any', children: [node, ...alternatives] };
    return node;
  });
  return groups.length === 1 ? groups[0]! : { type: 'all', children: groups };
}

/** The whole `parsedRequirements` list (one entry per top-level rule) as one tree; an empty `all` when there is none. */
export function kualiTree(requirements: readonly unknown[]): RequirementNode {
  const nodes = requirements.map(kualiNode);
  return nodes.length === 1 ? nodes[0]! : { type: 'all', children: nodes };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/**
 * The Kuali rule as the calendar shows it, as plain text: each nested list becomes a parenthesised,
 * comma-separated group after its heading, and linked courses are reduced to their codes (the titles
 * and credit values beside them describe the linked course, not the rule). E.g. "Complete all of the
 * following: (Complete 1 of: (CSC 115, CSC 116), Complete all of: (MATH 122))".
 */
export function kualiText(html: string | null | undefined): string | undefined {
  if (!html) return undefined;
  const flat = html
    .replace(/<!-- -->/g, '')
    .replace(LINKED_COURSE, '$1 $2');
  let out = '';
  const lists: number[] = [];
  for (const token of flat.split(/(<[^>]+>)/)) {
    if (!token.startsWith('<')) {
      out += token.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');
      continue;
    }
    const tag = /^<(\/?)(\w+)/.exec(token);
    if (!tag) continue;
    const [, closing, name] = tag;
    if (name === 'ul') {
      if (closing) {
        lists.pop();
        if (lists.length) out += ')';
      } else {
        if (lists.length) out += ' (';
        lists.push(0);
      }
    } else if (name === 'li' && !closing && lists.length) {
      if (lists[lists.length - 1]! > 0) out += ', ';
      lists[lists.length - 1]! += 1;
    } else out += ' ';
  }
  const plain = out
    .replace(/\s+/g, ' ')
    .replace(/\(\s+/g, '(')
    .replace(/\s+([:;,.)])/g, '$1')
    .replace(/([^:,(]) \(/g, '$1: (')
    .replace(/:+/g, ':')
    .trim();
  return text(plain);
}

const RequisitesShape = z.object({
  courseId: z.string(),
  title: z.string().nullish(),
  pid: z.string().nullish(),
  url: z.string().nullish(),
  htmlRequirements: z.string().nullish(),
  parsedRequirements: z.array(z.unknown()).nullish(),
});

function requisitesFragment(key: string, raw: unknown, context: AdapterContext): CourseFragment {
  const course = shape(RequisitesShape, raw);
  if (course.courseId.trim() !== key) throw new RecordError(`keyed "${key}" but courseId is "${course.courseId}"`);
  const code = uvicCode(course.courseId);
  const requirements = course.parsedRequirements ?? [];
  const url = text(course.url);
  return {
    kind: 'course',
    institution: INSTITUTION,
    code,
    provenance: provenance('uvic-requisites', context, course.courseId.trim(), url ? { sourceUrl: url } : {}),
    title: text(course.title),
    // Kuali mixes pre- and co-requisites in one rule; "concurrently enrolled" marks the co-requisite parts in the tree.
    prerequisitesText: kualiText(course.htmlRequirements),
    ...(requirements.length ? { prerequisiteTree: kualiTree(requirements) } : {}),
  };
}

function parseRequisites(raw: string, context: AdapterContext): AdapterOutput {
  const file = readJson(raw, context, z.record(z.string(), z.unknown()));
  if (!file.ok) return file.output;
  const entries = Object.entries(file.value);
  return combine(mapRecords(entries, ([key]) => key, ([key, value]) => [requisitesFragment(key, value, context)]));
}

const StubShape = z.object({
  __catalogCourseId: z.string(),
  title: z.string().nullish(),
  pid: z.string().nullish(),
  subjectCode: z.object({ name: z.string().nullish(), description: z.string().nullish() }).nullish(),
  dateStart: z.string().nullish(),
});

function stubFragment(raw: unknown, context: AdapterContext): CourseFragment {
  const stub = shape(StubShape, raw);
  const code = uvicCode(stub.__catalogCourseId);
  const title = text(stub.title);
  if (!title) throw new RecordError('title is blank');
  const pid = text(stub.pid);
  const subject = text(stub.subjectCode?.description);
  const since = text(stub.dateStart);
  return {
    kind: 'course',
    institution: INSTITUTION,
    code,
    provenance: provenance('uvic-kuali', context, stub.__catalogCourseId.trim(), pid ? { sourceUrl: `https://www.uvic.ca/calendar/undergrad/index.php#/courses/${pid}` } : {}),
    title,
    ...(subject ? { attributes: [`Subject: ${subject}`] } : {}),
    ...(since ? { notes: `Calendar version effective ${since}.` } : {}),
  };
}

function parseKuali(raw: string, context: AdapterContext): AdapterOutput {
  const file = readJson(raw, context, z.array(z.unknown()));
  if (!file.ok) return file.output;
  return combine(mapRecords(file.value, (item) => field(item, '__catalogCourseId'), (item) => [stubFragment(item, context)]));
}

export const uvicRequisitesAdapter: SourceAdapter = {
  name: 'uvic-requisites',
  description: 'UVic courses with Kuali requisite rules (uvic-course-map courses.json, Dec 2024): titles, calendar links, rule text and the structured requirement tree',
  institutions: [INSTITUTION],
  parse: parseRequisites,
};

export const uvicKualiAdapter: SourceAdapter = {
  name: 'uvic-kuali',
  description: 'UVic Kuali catalog stubs (uvic-course-map kuali-course-catalog.json, Dec 2024): titles, subject names, catalog version dates',
  institutions: [INSTITUTION],
  parse: parseKuali,
};
