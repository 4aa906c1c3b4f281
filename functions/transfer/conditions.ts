import * as z from 'zod/v4';
import { normalizeCourseCode } from '../shared/catalog/course-ref.js';
import type { AlternativeTarget, TransferRule } from './rule-model.js';

/**
 * Conditions a transfer award depends on, typed from the rule's prose. A condition that is not
 * known to hold keeps its award out of the plan and is surfaced with what would make it hold.
 */
export const CONDITION_TYPES = ['prior-credit', 'program', 'minimum-grade', 'recency', 'taken-alone', 'taken-together', 'other'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export const TransferConditionSchema = z
  .object({
    type: z
      .enum(CONDITION_TYPES)
      .describe(
        'prior-credit: the student already has credit for `courses` at the receiver; program: only for students in or admitted to `program`; ' +
          'minimum-grade: at least `grade` in the sending course; recency: taken within `years`; taken-alone: only when the other courses of the ' +
          'subject are not also taken; taken-together: only when `count` of the listed courses are completed; other: any other "if"',
      ),
    text: z.string().describe('The condition as published'),
    appliesTo: z.string().describe('"rule", or the target it qualifies (its text), e.g. an alternative award'),
    courses: z.array(z.string()).optional().describe('Receiving-institution course codes named by a prior-credit condition'),
    program: z.string().optional().describe('Program or faculty named by a program condition'),
    grade: z.string().optional().describe('Minimum letter grade, e.g. "C" or "C-"'),
    years: z.number().optional().describe('Recency window in years'),
    count: z.number().int().optional().describe('How many courses a taken-together condition needs'),
  })
  .describe('A condition a transfer award depends on');
export type TransferCondition = z.infer<typeof TransferConditionSchema>;

/** What the caller knows about the student (tn_transfer_resolve's optional inputs). */
export interface StudentFacts {
  completedAtTarget: Set<string>;
  program?: string;
  /** Letter grades per sending course code. */
  grades: Map<string, string>;
}

export type ConditionStatus = 'holds' | 'fails' | 'unknown';

const CODE = String.raw`(?:[A-Z]{2,5} )?[A-Z]{2,5}(?:_[A-Z])? \d{3,4}[A-Z]?`;
const CODE_LIST = new RegExp(`${CODE}(?:\\s*(?:,|or|and|&)\\s*${CODE})*`);

function codesIn(text: string): string[] {
  const list = CODE_LIST.exec(text)?.[0] ?? '';
  const codes = [...list.matchAll(new RegExp(CODE, 'g'))].map((m) => m[0].split(' ').slice(-2).join(' ').replace(/_[A-Z]$/, ''));
  return [...new Set(codes.map((code) => normalizeCourseCode(code.replace(/_[A-Z](?= )/, '')) ?? code))];
}

/** Types one piece of condition prose; undefined when it is no condition on the award (a note, a restriction of use). */
export function typeCondition(text: string, appliesTo: string): TransferCondition | undefined {
  const t = text.trim().replace(/\s+/g, ' ');
  const base = { text: t, appliesTo };
  if (/^(?:if|when) (?:the )?(?:student )?(?:already )?(?:has|have|had|received|obtained)? ?(?:credit )?(?:already )?(?:received |obtained )?(?:for )?/i.test(t) && /already|has credit|received credit|credit already/i.test(t)) {
    const courses = codesIn(t);
    if (courses.length) return { type: 'prior-credit', ...base, courses };
  }
  if (/^if .+ already obtained/i.test(t)) {
    const courses = codesIn(t);
    if (courses.length) return { type: 'prior-credit', ...base, courses };
  }
  const admitted = /only if (?:the )?student is (?:being )?admitted (?:in)?to (?:the )?([A-Z][\w .&-]+?)(?:\.|,|;|$)/i.exec(t) ?? /^for ([A-Z][\w .&-]+?) students only/i.exec(t);
  if (admitted) return { type: 'program', ...base, program: admitted[1]!.trim() };
  const grade = /(?:must have|minimum (?:grade )?(?:of )?|grade of )\s*([A-D][+-]?) (?:or (?:better|higher) )?to transfer/i.exec(t) ?? /^(?:if|with) (?:a )?(?:minimum )?grade of ([A-D][+-]?)/i.exec(t);
  if (grade) return { type: 'minimum-grade', ...base, grade: grade[1]!.toUpperCase() };
  const recency = /within (?:the (?:last|past) )?(\d+) years/i.exec(t);
  if (recency && /\bif\b|only|must|completed|taken/i.test(t)) return { type: 'recency', ...base, years: Number(recency[1]) };
  if (/^if taken alone|no credit if (?:taken alone|.+ is taken by itself)/i.test(t)) return { type: 'taken-alone', ...base };
  const together = /^if any (two|three|2|3) of these courses are completed/i.exec(t);
  if (together) return { type: 'taken-together', ...base, count: { two: 2, three: 3 }[together[1]!.toLowerCase()] ?? Number(together[1]) };
  if (/^(?:if|only if|when)\b/i.test(t)) return { type: 'other', ...base };
  return undefined;
}

/**
 * Statements about how transferred credit may be used, not conditions on receiving it ("Not for
 * credit in Science", "Cannot be used for credit in B.Com program", "May be taken more than once …").
 * They are typed as such: kept in the rule's condition text, never blocking the award.
 */
const APPLICABILITY = [
  /^(?:not|cannot|can ?not|does not|do not|will not|may not be used)\b.*\b(?:credit|count|counted|used|satisfy|meet|requirement|program|degree|major)/i,
  /^(?:may be taken more than once|can be used|counts? (?:as|towards)|satisfies|meets|please note|see transfer notes|credit transferred at|intended for|open to)/i,
  /^(?:students (?:in|with) .+ (?:may|should|must) )|requirement/i,
];

export function isApplicabilityNote(sentence: string): boolean {
  const t = sentence.trim();
  return !/^(?:if|only if|when)\b/i.test(t) && APPLICABILITY.some((pattern) => pattern.test(t));
}

const GRADE_ORDER = ['F', 'D', 'D+', 'C-', 'C', 'C+', 'B-', 'B', 'B+', 'A-', 'A', 'A+'];

/** Whether a condition holds for what the caller told us; `unknown` when we were not told. */
export function evaluateCondition(condition: TransferCondition, facts: StudentFacts, usedCourses: string[]): ConditionStatus {
  switch (condition.type) {
    case 'prior-credit':
      return condition.courses!.every((code) => facts.completedAtTarget.has(code)) ? 'holds' : 'unknown';
    case 'program': {
      if (!facts.program) return 'unknown';
      const [a, b] = [facts.program.toLowerCase(), condition.program!.toLowerCase()];
      return a.includes(b) || b.includes(a) ? 'holds' : 'fails';
    }
    case 'minimum-grade': {
      const grades = usedCourses.map((code) => facts.grades.get(code));
      if (grades.some((g) => g === undefined)) return 'unknown';
      const min = GRADE_ORDER.indexOf(condition.grade!);
      return grades.every((g) => GRADE_ORDER.indexOf(g!.toUpperCase()) >= min) ? 'holds' : 'fails';
    }
    default:
      return 'unknown';
  }
}

/** What the caller could tell us, or the student could do, to make a condition hold. */
export function wouldHoldIf(condition: TransferCondition): string {
  switch (condition.type) {
    case 'prior-credit': return `the student already has credit for ${condition.courses!.join(' and ')} at the receiving institution (pass them in completedAtTarget)`;
    case 'program': return `the student is in or admitted to ${condition.program} (pass program)`;
    case 'minimum-grade': return `the student earned ${condition.grade} or better in the sending course (pass grades)`;
    case 'recency': return `the course was completed within ${condition.years} years; confirm with the receiving institution`;
    case 'taken-alone': return 'the course is taken on its own, as the condition describes; confirm with the receiving institution';
    case 'taken-together': return `${condition.count} of the listed courses are completed`;
    default: return `"${condition.text}" is true; confirm with the receiving institution`;
  }
}

export interface RuleConditions {
  /** Conditions on the whole award: not known to hold, the rule stays out of the plan. */
  rule: TransferCondition[];
  /** Conditions on one target or alternative award. */
  targets: Map<AlternativeTarget, TransferCondition>;
  /** Prose awarding further or other credit under a condition ("If credit already received for X, credit will be Y (2)"). */
  conditionalAwards: TransferCondition[];
}

const AWARDS_CREDIT = /\(\d+(?:\.\d+)?\)/;

const memo = new WeakMap<TransferRule, RuleConditions>();

/**
 * The typed conditions of a rule: on the whole rule (condition prose, or an "if" note on its only
 * award), or on one alternative award ("… or SFU ASC 2XX (3), if student already has credit for SFU
 * ASC 202" qualifies the alternative, not the rule).
 */
export function conditionsOf(rule: TransferRule): RuleConditions {
  let found = memo.get(rule);
  if (found) return found;
  found = { rule: [], targets: new Map(), conditionalAwards: [] };
  const lastAlternative = rule.targets.length === 1 ? rule.targets[0]!.alternatives?.at(-1)?.at(-1) : undefined;
  for (const sentence of splitSentences(rule.conditionText ?? '')) {
    const typed = typeCondition(sentence, 'rule');
    if (!typed) continue;
    if (AWARDS_CREDIT.test(sentence)) {
      found.conditionalAwards.push({ ...typed, appliesTo: 'conditional award' });
      continue;
    }
    const trailing = lastAlternative && /^if\b/i.test(sentence) && rule.rawDetail.includes(`${lastAlternative.text}, ${sentence.split(/[.;]/)[0]}`);
    if (trailing) found.targets.set(lastAlternative, { ...typed, appliesTo: lastAlternative.text });
    else found.rule.push(typed);
  }
  for (const target of rule.targets) {
    const onTarget = target.note ? typeCondition(target.note, target.text) : undefined;
    // An "if" note on an award stands for the whole rule when the rule awards nothing else.
    if (onTarget) (rule.targets.length === 1 && !target.alternatives ? found.rule : []).push(onTarget);
    if (onTarget && (rule.targets.length > 1 || target.alternatives)) found.targets.set(target, onTarget);
    for (const set of target.alternatives ?? []) {
      for (const alternative of set) {
        const typed = alternative.note ? typeCondition(alternative.note, alternative.text) : undefined;
        if (typed) found.targets.set(alternative, typed);
      }
    }
  }
  found.rule = dedupe(found.rule);
  memo.set(rule, found);
  return found;
}

function splitSentences(text: string): string[] {
  return text.split(/(?<=[.;])\s+(?=[A-Z(])|;\s*/).map((s) => s.trim()).filter(Boolean);
}

function dedupe(conditions: TransferCondition[]): TransferCondition[] {
  const seen = new Set<string>();
  return conditions.filter((c) => !seen.has(`${c.type}|${c.text.replace(/\.$/, '')}`) && seen.add(`${c.type}|${c.text.replace(/\.$/, '')}`));
}
