import { normalizeCourseCode } from '../catalog/course-ref.js';
import { DomainError } from '../platform/domain-error.js';
import { NUMBER } from './rule-text/detail-lexer.js';
import type { AlternativeTarget, TransferRule } from './rule-model.js';

/** How a receiving course (or generic credit) appears in a rule. */
export const AWARD_FORMS = ['target', 'alternative', 'exemption', 'conditional', 'partial', 'generic'] as const;
export type AwardForm = (typeof AWARD_FORMS)[number];

/** "ASC 2XX", "CPSC 1st", "ENGL 100 lev": a generic credit written the one way whatever its spelling ("asc 2xx", "CPSC_V 1ST"). */
function genericKey(subject: string, pattern: string): string {
  const normal = pattern
    .trim()
    .replace(/\s+/g, ' ')
    .toUpperCase()
    .replace(/ LEV$/, ' lev')
    .replace(/^(\d)(ST|ND|RD|TH)$/, (_, digit: string, ordinal: string) => digit + ordinal.toLowerCase());
  return `${subject.replace(/_[A-Z]$/i, '').toUpperCase()} ${normal}`;
}

function keyOf(target: AlternativeTarget): string | undefined {
  if (target.code) return target.code;
  if (target.kind === 'generic' || target.kind === 'elective') return target.subject && target.pattern ? genericKey(target.subject, target.pattern) : undefined;
  return undefined;
}

/**
 * Every receiving course and generic credit a rule can award, and in which form: its targets,
 * alternatives the student may take instead, exemptions (0-credit courses included), awards under a
 * condition, what part of a bundle earns. Reverse lookup lists a rule under each.
 */
export function awardedKeys(rule: TransferRule): Map<string, AwardForm[]> {
  const found = new Map<string, Set<AwardForm>>();
  const add = (target: AlternativeTarget, form: AwardForm) => {
    if (target.institution && target.institution !== rule.receiverInstitution) return;
    const key = keyOf(target);
    if (!key) return;
    const forms = found.get(key) ?? found.set(key, new Set()).get(key)!;
    forms.add(target.kind === 'exemption' || target.credits === 0 ? 'exemption' : form);
    if (!target.code) forms.add('generic');
  };
  for (const target of rule.targets) {
    add(target, 'target');
    for (const set of target.alternatives ?? []) for (const alternative of set) add(alternative, 'alternative');
  }
  for (const set of rule.alternativeAwards) for (const alternative of set) add(alternative, 'alternative');
  for (const code of rule.exemptions) add({ kind: 'exemption', code, credits: 0, text: code }, 'exemption');
  for (const award of rule.conditionalAwards ?? []) for (const target of award.targets) add(target, award.mode === 'exemption' ? 'exemption' : 'conditional');
  for (const partial of rule.partialAwards ?? []) for (const target of partial.targets) add(target, 'partial');
  return new Map([...found].map(([key, forms]) => [key, [...forms].sort()]));
}

const withoutPrefix = (input: string) => (input.includes(':') ? input.slice(input.indexOf(':') + 1) : input).trim();

/** A receiving course ("CMPT 225", "sfu:CMPT 225", "SFU CMPT 225") or generic credit ("ASC 2XX", "UBCV CPSC 1st"), or BAD_REQUEST naming the field. */
export function targetCourseInput(input: string, field: string): string {
  const plain = withoutPrefix(input).replace(/^[A-Z]{2,5} (?=[A-Z]{2,5}(?:_[A-Z])? \w)/i, '');
  const code = normalizeCourseCode(plain);
  if (code) return code;
  const generic = /^([A-Za-z]{2,5})(?:_[A-Za-z])? ?(\S+(?: lev)?)$/i.exec(plain.replace(/\s+/g, ' '));
  if (generic) {
    const key = genericKey(generic[1]!, generic[2]!);
    const pattern = key.slice(key.indexOf(' ') + 1);
    if (NUMBER.test(pattern) || /^\d(?:00)? lev$/.test(pattern)) return key;
  }
  throw DomainError.invalid(`"${input}" is not a course code like "CMPT 225" or generic credit like "ASC 2XX".`, [{ field, message: 'expected SUBJECT NUMBER or SUBJECT PATTERN (2XX, 1st, 100 lev)' }]);
}
