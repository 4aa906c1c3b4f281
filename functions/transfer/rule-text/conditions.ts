import * as z from 'zod/v4';
import { normalizeCourseCode } from '../../catalog/course-ref.js';

/**
 * Conditions a transfer award depends on, typed from the rule's prose. A condition that is not
 * known to hold keeps its award out of the plan and is surfaced with what would make it hold.
 * Prose that limits credit in words this module cannot type is a condition of type `other`: never
 * taken as holding, so the plan never promises what the wording may forbid.
 */
const CONDITION_TYPES = ['prior-credit', 'program', 'minimum-grade', 'recency', 'taken-alone', 'taken-together', 'other', 'not-for-program', 'no-credit-with', 'with-course'] as const;

export const TransferConditionSchema = z
  .object({
    type: z
      .enum(CONDITION_TYPES)
      .describe(
        'prior-credit: the student already has credit for `courses` at the receiver; program: only for students in or admitted to `program`; ' +
          'minimum-grade: at least `grade` in the sending course; recency: taken within `years`; taken-alone: only when the other courses of the ' +
          'subject (or `courses`) are not also taken; taken-together: only when `count` of the listed courses are completed; other: any other ' +
          'wording that limits the credit (never taken as holding); not-for-program: the credit does not count in `program` (holds unless the ' +
          'student says they are in it); no-credit-with: no credit alongside prior or concurrent credit in `subjects` or `courses`; ' +
          'with-course: only together with one of the sending `courses`',
      ),
    text: z.string().describe('The condition as published'),
    appliesTo: z.string().describe('"rule", or the target it qualifies (its text), e.g. an alternative award'),
    courses: z.array(z.string()).optional().describe('Course codes named by a prior-credit, taken-alone, no-credit-with or with-course condition'),
    courseMatch: z.enum(['all', 'any']).optional().describe('prior-credit and with-course: whether all of `courses` are needed or any one ("A or B"); all when absent'),
    program: z.string().optional().describe('Program or faculty named by a program or not-for-program condition'),
    programs: z.array(z.string()).optional().describe('Each program named, when the condition names several ("for the BCom and BABC programs")'),
    grade: z.string().optional().describe('Minimum letter grade, e.g. "C" or "C-"'),
    years: z.number().optional().describe('Recency window in years'),
    count: z.number().int().optional().describe('How many courses a taken-together condition needs'),
    subjects: z.array(z.string()).optional().describe('no-credit-with: subjects whose prior or concurrent credit rules the award out'),
    negated: z.boolean().optional().describe('True when the award needs this condition NOT to hold (the main award beside "If …, credit will be …")'),
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
const CODE_LIST = new RegExp(`${CODE}(?:\\s*(?:,\\s*(?:or|and)?|or|and|&)\\s*(?:${CODE}|\\d{3,4}[A-Z]?\\b))*`);

/** Course codes of the first list in the text; a bare number takes the subject before it ("LANG CHEM 2216, CHEM 2316 or 2416"). */
function codesIn(text: string): { codes: string[]; any: boolean } {
  const list = CODE_LIST.exec(text)?.[0] ?? '';
  const codes: string[] = [];
  let subject = '';
  for (const m of list.matchAll(new RegExp(`${CODE}|\\b\\d{3,4}[A-Z]?\\b`, 'g'))) {
    const parts = m[0].split(' ');
    if (parts.length > 1) subject = parts.at(-2)!.replace(/_[A-Z]$/, '');
    const code = `${subject} ${parts.at(-1)}`;
    codes.push(normalizeCourseCode(code) ?? code);
  }
  return { codes: [...new Set(codes)], any: /\bor\b/i.test(list) };
}

/** "for the BCom and BABC programs" → ["BCom", "BABC"]; "Biology and BCMB Majors" → ["Biology", "BCMB"]. */
function programsIn(phrase: string): string[] {
  const cleaned = phrase
    .replace(/\b(?:the|students?|programs?|majors?|only|faculty of|school of|department of|faculties)\b/gi, ' ')
    .replace(/"/g, ' ')
    .replace(/\.$/, '')
    .trim();
  return cleaned
    .split(/\s*(?:,|&|\band\b|\bor\b)\s*/i)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 1);
}

const programCondition = (type: 'program' | 'not-for-program', phrase: string, base: { text: string; appliesTo: string }, negated = false): TransferCondition => {
  const programs = programsIn(phrase);
  return { type, ...base, program: programs.join(', ') || phrase.trim(), ...(programs.length > 1 ? { programs } : {}), ...(negated ? { negated } : {}) };
};

const PROGRAM_ONLY = [
  /only if (?:the )?students? (?:is|are) (?:being )?(?:admitted|accepted) (?:in)?to (?:the )?(.+?)(?:\.|,|;|$)/i,
  /^(?:only )?for (?:the )?(.+?) (?:programs?|students|majors?)(?: only)?\.?$/i,
  /^for (.+?) only\.?$/i,
  /^(?:for )?students (?:admitted|accepted|enrolled) (?:in)?to (?:the )?(.+?)\.?$/i,
  /^\(([A-Za-z][A-Za-z. ]{0,30})\)$/,
];
const NOT_FOR_PROGRAM = [
  /^(?:not|no credit) (?:for|in|towards?)(?: credit)?(?: (?:in|for|towards?))? (?:a |an |the )?(?:faculty of )?(.+?)\.?$/i,
  /^(?:cannot|can ?not|may not) be used (?:for credit |as .+? )?(?:in|towards?|by) (?:the |a )?(.+?)\.?$/i,
  /^credit for this course will not be counted towards (?:degree )?(?:programs? )?(?:in )?(.+?)\.?$/i,
];

/** Types one piece of condition prose; undefined when it is no condition on the award (a note, a restriction of use). */
export function typeCondition(text: string, appliesTo: string): TransferCondition | undefined {
  return typeConditions(text, appliesTo)[0];
}

/** Every condition one piece of prose states ("students in the NCBNP program who receive a minimum "C" grade": a program and a grade). */
export function typeConditions(text: string, appliesTo: string): TransferCondition[] {
  const t = text.trim().replace(/\s+/g, ' ');
  const base = { text: t, appliesTo };
  if (/^(?:if|when) (?:the )?(?:student )?(?:already )?(?:has|have|had|received|obtained)? ?(?:credit )?(?:already )?(?:received |obtained )?(?:for )?/i.test(t) && /already|has credit|received credit|credit already/i.test(t)) {
    const { codes, any } = codesIn(t);
    if (codes.length) return [{ type: 'prior-credit', ...base, courses: codes, ...(any && codes.length > 1 ? { courseMatch: 'any' as const } : {}) }];
  }
  if (/^if .+ already obtained/i.test(t)) {
    const { codes, any } = codesIn(t);
    if (codes.length) return [{ type: 'prior-credit', ...base, courses: codes, ...(any && codes.length > 1 ? { courseMatch: 'any' as const } : {}) }];
  }
  const noCreditWith = /^no (?:further )?credit (?:with|in conjunction with|together with|if (?:the )?student has|for students with) (.+?)\.?$/i.exec(t);
  if (noCreditWith) {
    const subjects = [...noCreditWith[1]!.matchAll(/\b(?:prior|concurrent|other)\b[^.]*?\b([A-Z]{2,5})\b(?= credit| course)/g)].map((m) => m[1]!);
    const courses = [...noCreditWith[1]!.matchAll(/\b([A-Z]{2,5} \d{1,4}[A-Z]?)\b/g)].map((m) => m[1]!);
    return [{ type: 'no-credit-with', ...base, ...(courses.length ? { courses } : {}), ...(subjects.length ? { subjects: [...new Set(subjects)] } : {}) }];
  }
  const withOne = /^(?:with|when taken with|if taken with) (?:one of |any of |either )?(.+)/i.exec(t);
  if (withOne) {
    const { codes, any } = codesIn(withOne[1]!);
    if (codes.length) return [{ type: 'with-course', ...base, courses: codes, ...(any || /one of|any of|either/i.test(t) ? { courseMatch: 'any' as const } : {}) }];
  }
  const who = /^students? (?:in|entering|enrolled in|admitted (?:in)?to) (?:the |a )?(non-)?(.+?)(?: programs?)?(?: who (.+))?$/i.exec(t);
  if (who) {
    const found = [programCondition('program', who[2]!, base, Boolean(who[1]))];
    const grade = who[3] && /minimum "?([A-D][+-]?)"? grade|grade of "?([A-D][+-]?)"?/i.exec(who[3]);
    if (grade) found.push({ type: 'minimum-grade', ...base, grade: (grade[1] ?? grade[2])!.toUpperCase() });
    return found;
  }
  for (const pattern of PROGRAM_ONLY) {
    const match = pattern.exec(t);
    if (match) return [programCondition('program', match[1]!, base)];
  }
  // A grade needed to use the credit as a prerequisite is a note (isApplicabilityNote); one needed for the credit is a condition.
  const grade = /\b(?:must have|minimum|min\.|grade of|requires? (?:a )?)\s*(?:grade\s+)?(?:of\s+)?"?([A-D][+-]?)"?(?=[\s."]|$)/.exec(t) ?? /\b"?([A-D][+-]?)"? or (?:better|higher)\b/.exec(t);
  if (grade && !/requisite|to use as|for use as/i.test(t)) return [{ type: 'minimum-grade', ...base, grade: grade[1]!.toUpperCase() }];
  const companion = /^(?:credit )?(?:only )?(?:if|when) (?:taken|completed) (?:with|together with|concurrently with) (.+)|^must be (?:taken|completed) (?:with|together with|concurrently with) (.+)/i.exec(t);
  if (companion) {
    const { codes, any } = codesIn(companion[1] ?? companion[2]!);
    if (codes.length) return [{ type: 'with-course', ...base, courses: codes, ...(any ? { courseMatch: 'any' as const } : {}) }];
  }
  const recency = /within (?:the (?:last|past) )?(\d+) years/i.exec(t);
  if (recency && /\bif\b|only|must|completed|taken|provided/i.test(t)) return [{ type: 'recency', ...base, years: Number(recency[1]) }];
  // "No credit if taken alone" / "if LANG MATH 1273 is taken by itself": credit only with the other courses of the bundle.
  if (/^no credit if (?:taken alone|.+ is taken (?:by itself|alone))/i.test(t)) return [{ type: 'taken-together', ...base, count: 2 }];
  if (/^if taken alone/i.test(t)) return [{ type: 'taken-alone', ...base }];
  const together = /^if any (two|three|2|3) of these courses are completed/i.exec(t);
  if (together) return [{ type: 'taken-together', ...base, count: { two: 2, three: 3 }[together[1]!.toLowerCase()] ?? Number(together[1]) }];
  for (const pattern of NOT_FOR_PROGRAM) {
    const match = pattern.exec(t);
    // A course code is no program ("No credit in conjunction with LANG X" is typed above).
    if (match && !/\b(?:prerequisite|requirement|elective|core|breadth|way of knowing)/i.test(match[1]!) && !codesIn(match[1]!).codes.length) return [programCondition('not-for-program', match[1]!, base)];
  }
  if (/^(?:if|only if|when|provided|unless)\b/i.test(t)) return [{ type: 'other', ...base }];
  return [];
}

/**
 * Statements about how transferred credit may be used, not conditions on receiving it ("Counts as a
 * lab credit for BA", "Meets the English requirement", "Prerequisite for UVIC MATH 330A", "Students
 * are warned …"). They are kept in the rule's condition text and never block the award.
 */
const APPLICABILITY = [
  /^(?:does not|do not|will not|not to|cannot|can ?not|may not|must)\b.*\b(?:satisfy|meet|fulfil+|apply|qualify|count(?:ed)?|use as|prerequisites?|requirements?|core|breadth|way of knowing)\b/i,
  /^(?:may be taken more than once|can be used|may be used|counts? (?:as|towards)|satisf(?:y|ies)|meets|fulfil+s?|will (?:fulfil+|qualify|meet|satisfy|count)|eligible as|prerequisite for|substitute for|can substitute|please\b|see\b|note\b|credit transferred at|intended for|open to|students are (?:warned|advised)|literature waiver|waiver|may take\b|may be assigned|credit may be granted in|no lab credit|with lab|not a lab science|studio credit|\(category|\(not to be used|.* see (?:an? )?(?:academic )?advis[eo]r)/i,
  /^(?:students (?:in|with) .+ (?:may|should|must) )|requirements?\b/i,
  /^(?:otherwise|no credit for (?:all )?other)\b/i,
];

export function isApplicabilityNote(sentence: string): boolean {
  const t = sentence.trim().replace(/^\*+/, '');
  return !/^(?:if|only if|when)\b/i.test(t) && APPLICABILITY.some((pattern) => pattern.test(t));
}

/** Words by which prose limits or conditions credit; such prose, untyped, is a condition of type `other`. */
const LIMITING = /\b(?:no credit|not (?:open|eligible|granted|awarded|given|available)|only|unless|provided|must|requires?|required|max(?:imum)?|at most|cannot|can ?not|may not|will not|precludes?|exclud\w*|once|if|when|without|except|granted if)\b/i;

export function limitsCredit(sentence: string): boolean {
  return LIMITING.test(sentence) && !isApplicabilityNote(sentence);
}
