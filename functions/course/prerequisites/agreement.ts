import { CANONICAL_SUBJECT_SOURCE, normalizeCourseCode } from '../../catalog/course-ref.js';
import { parsePrerequisites } from './parser.js';
import { langaraTexts, loadLangaraConverted, loadSfuParsed, sfuTexts, ubcTexts, type SourceText } from './sources.js';
import type { RequirementNode } from './tree.js';

/**
 * Agreement between our parser and the shipped parsed trees. The SFU trees are LLM output and the
 * Langara trees are LLM output a person approved, so this measures agreement, not accuracy.
 *
 * Comparison (structure-insensitive canonical form):
 *  - Only course codes and the AND/OR shape count. Every non-course requirement (credits, GPA,
 *    permission, high-school course, exam, …) becomes one placeholder "•"; "or equivalent" markers
 *    are dropped (we carry them as flags, the shipped trees as nodes).
 *  - Nested groups of the same kind are flattened, single-child groups unwrapped, and a group's
 *    children are a set sorted by code unit (duplicates collapse), so order and repetition do not matter.
 *  - Grades: for each course code that both trees give a minimum grade, the grades must match.
 *  - Concurrency flags are not compared. A Langara text agrees when any candidate parse matches.
 */

type Canon =
  | { kind: 'all' | 'any'; count?: number; children: Canon[] }
  | { kind: 'course'; code: string; grade?: string }
  | { kind: 'cond' | 'unparsed' | 'equiv' };

interface SourceAgreement {
  total: number;
  agree: number;
  rate: number;
  fullyParsedRate: number;
}

interface Disagreement {
  source: 'sfu' | 'langara';
  course?: string;
  text: string;
  ours: string;
  theirs: string;
  /** codes: different course sets; shape: same codes, different AND/OR; grades: same shape, grades differ. */
  reason: 'codes' | 'shape' | 'grades';
}

export interface AgreementReport {
  sfu: SourceAgreement;
  langara: SourceAgreement;
  disagreements: Disagreement[];
}

function normalize(node: Canon): Canon | undefined {
  if (node.kind === 'equiv') return undefined;
  if (node.kind !== 'all' && node.kind !== 'any') return node;
  const counted = (node.count ?? 1) > 1;
  const flat: Canon[] = [];
  for (const child of node.children.map(normalize)) {
    if (!child) continue;
    const group = child.kind === 'all' || child.kind === 'any' ? child : undefined;
    if (group && group.kind === node.kind && !counted && (group.count ?? 1) === 1) flat.push(...group.children);
    else flat.push(child);
  }
  const unique = [...new Map(flat.map((child) => [key(child), child])).values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (unique.length === 0) return undefined;
  if (unique.length === 1 && !counted) return unique[0];
  return { kind: node.kind, ...(counted ? { count: node.count } : {}), children: unique };
}

function key(node: Canon | undefined): string {
  if (!node) return '∅';
  if (node.kind === 'all' || node.kind === 'any') return `${node.kind}${node.count ?? ''}(${node.children.map(key).join(', ')})`;
  return node.kind === 'course' ? node.code : { cond: '•', unparsed: '?', equiv: '≈' }[node.kind];
}

function grades(node: Canon | undefined, into = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (node?.kind === 'course' && node.grade) into.set(node.code, (into.get(node.code) ?? new Set()).add(node.grade.toUpperCase()));
  if (node && (node.kind === 'all' || node.kind === 'any')) node.children.forEach((child) => grades(child, into));
  return into;
}

const CANONICAL_CODE = new RegExp(String.raw`${CANONICAL_SUBJECT_SOURCE} \d{3,4}[A-Z]?`, 'g');

function codes(canonKey: string): string {
  return [...new Set(canonKey.match(CANONICAL_CODE) ?? [])].sort().join(',');
}

/** Compares two canonical trees; undefined when they agree, else why not. */
function compare(ours: Canon | undefined, theirs: Canon | undefined): Disagreement['reason'] | undefined {
  const a = key(ours);
  const b = key(theirs);
  if (a !== b) return codes(a) === codes(b) ? 'shape' : 'codes';
  const ourGrades = grades(ours);
  for (const [code, theirGrades] of grades(theirs)) {
    const mine = ourGrades.get(code);
    if (mine && [...mine].sort().join() !== [...theirGrades].sort().join()) return 'grades';
  }
  return undefined;
}

/** The canonical comparison key of one of our trees (exported so the comparison rule is testable). */
export function canonicalKey(node: RequirementNode): string {
  return key(normalize(fromOurs(node)));
}

function fromOurs(node: RequirementNode): Canon {
  switch (node.type) {
    case 'all':
    case 'any':
      return { kind: node.type, ...(node.type === 'any' && node.count ? { count: node.count } : {}), children: node.children.map(fromOurs) };
    case 'course':
      return { kind: 'course', code: node.code, grade: node.minGrade };
    case 'condition':
      return { kind: 'cond' };
    case 'unparsed':
      return { kind: 'unparsed' };
  }
}

const EQUIVALENT_NOTE = /^(or )?equivalent\b|\bin equivalent$/i;

function fromSfu(raw: unknown): Canon {
  const node = raw as { type: string; logic?: string; children?: unknown[]; department?: string; number?: string; minGrade?: string; note?: string };
  if (node.type === 'group') {
    const count = node.logic === 'TWO_OF' ? 2 : undefined;
    return { kind: node.logic === 'ALL_OF' ? 'all' : 'any', ...(count ? { count } : {}), children: (node.children ?? []).map(fromSfu) };
  }
  if (node.type === 'course') {
    const code = normalizeCourseCode(`${node.department} ${node.number}`);
    return code ? { kind: 'course', code, grade: node.minGrade } : { kind: 'cond' };
  }
  return node.type === 'other' && EQUIVALENT_NOTE.test(node.note ?? '') ? { kind: 'equiv' } : { kind: 'cond' };
}

function fromLangara(raw: unknown): Canon {
  const node = raw as {
    type: string;
    logic?: string;
    children?: unknown[];
    note?: string;
    content?: { type: string; subject?: string; courseCode?: string };
    score?: { type: string; minGrade?: string; score?: string } | null;
  };
  if (node.type === 'PrerequisiteGroup') return { kind: node.logic === 'AND' ? 'all' : 'any', children: (node.children ?? []).map(fromLangara) };
  if (node.type === 'OtherRequirement') return EQUIVALENT_NOTE.test(node.note ?? '') ? { kind: 'equiv' } : { kind: 'cond' };
  if (node.content?.type === 'EquivalentCourse') return { kind: 'equiv' };
  if (node.content?.type !== 'ContentCollegeCourse') return { kind: 'cond' };
  const code = normalizeCourseCode(`${node.content.subject} ${node.content.courseCode}`);
  const grade = node.score?.type === 'ScoreLetter' ? node.score.minGrade : node.score?.type === 'ScoreLiteral' ? node.score.score : undefined;
  return code ? { kind: 'course', code, grade } : { kind: 'cond' };
}

function rate(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 1000) / 1000;
}

export function measureAgreement(options: { sampleLimit?: number } = {}): AgreementReport {
  const disagreements: Disagreement[] = [];
  const tally = (source: 'sfu' | 'langara', rows: { course?: string; text: string; subject?: string; candidates: Canon[] }[]) => {
    let agree = 0;
    let fully = 0;
    for (const row of rows) {
      const parsed = parsePrerequisites(row.text, { institution: source, defaultSubject: row.subject });
      if (parsed.fullyParsed) fully += 1;
      const ours = normalize(fromOurs(parsed.tree));
      const theirs = row.candidates.map(normalize);
      const reasons = theirs.map((candidate) => compare(ours, candidate));
      if (reasons.some((reason) => reason === undefined)) agree += 1;
      else disagreements.push({ source, course: row.course, text: row.text, ours: key(ours), theirs: key(theirs[0]), reason: reasons[0]! });
    }
    return { total: rows.length, agree, rate: rate(agree, rows.length), fullyParsedRate: rate(fully, rows.length) };
  };

  const sfuRows = loadSfuParsed()
    .filter((entry) => entry.original_prerequisites.trim())
    .map((entry) => {
      const prerequisite = entry.prerequisite ? fromSfu(entry.prerequisite) : undefined;
      // The LLM moved "Corequisite: X" sentences of the prerequisite text into `corequisite`.
      const coreq = entry.corequisite && !entry.original_corequisites.trim() ? fromSfu(entry.corequisite) : undefined;
      const parts = [prerequisite, coreq].filter((part): part is Canon => part !== undefined);
      return {
        course: `${entry.department} ${entry.number}`,
        subject: entry.department,
        text: entry.original_prerequisites,
        candidates: [{ kind: 'all' as const, children: parts }],
      };
    });
  const langaraRows = Object.entries(loadLangaraConverted()).map(([text, value]) => ({
    text,
    candidates: (Array.isArray(value) ? value : [value]).map((candidate) =>
      candidate.prerequisites ? fromLangara(candidate.prerequisites) : ({ kind: 'all', children: [] } as Canon),
    ),
  }));
  const sfu = tally('sfu', sfuRows);
  const langara = tally('langara', langaraRows);
  return { sfu, langara, disagreements: disagreements.slice(0, options.sampleLimit ?? disagreements.length) };
}

export interface CoverageReport {
  source: SourceText['source'];
  total: number;
  fullyParsed: number;
  rate: number;
}

/** Share of every shipped text (prerequisites and corequisites) that parses with no unparsed clause. */
export function measureCoverage(): CoverageReport[] {
  return [sfuTexts(), ubcTexts(), langaraTexts()].map((texts) => {
    const fullyParsed = texts.filter(
      (row) =>
        parsePrerequisites(row.text, { institution: row.source, defaultSubject: row.subject, corequisite: row.field === 'corequisites' }).fullyParsed,
    ).length;
    return { source: texts[0]!.source, total: texts.length, fullyParsed, rate: rate(fullyParsed, texts.length) };
  });
}
