import { ruleSummary, type RuleSummary } from './match-output.js';
import { dateFor, inForce } from './rule-span.js';
import type { TransferRule } from '../rule-model.js';

export interface NearMiss {
  course: string;
  reason: 'not-in-force' | 'similar-code' | 'no-rule';
  suggestions: RuleSummary[];
  confidence: number;
}

/** Suggestions in the same order whichever way the rules were read. */
function byContent(a: TransferRule, b: TransferRule): number {
  const key = (rule: TransferRule) => `${rule.sourceCourses.map((c) => c.code).join('+')}|${rule.effectiveStart}|${rule.ruleId}`;
  return key(a).localeCompare(key(b));
}

/** Same subject and a number one edit away (CPSC 1160 vs 1161, a renumbered course). */
function similarCode(candidate: string, code: string): boolean {
  const [subjectA, numberA = ''] = candidate.split(' ');
  const [subjectB, numberB = ''] = code.split(' ');
  if (subjectA !== subjectB || numberA === numberB || numberA.length !== numberB.length) return false;
  return [...numberA].filter((ch, i) => ch !== numberB[i]).length === 1;
}

/** Every code one digit away from this one: the only codes `similarCode` can accept that differ in a digit. */
function neighbours(code: string): string[] {
  const [subject, number = ''] = code.split(' ');
  const found: string[] = [];
  [...number].forEach((ch, i) => {
    if (!/\d/.test(ch)) return;
    for (let digit = 0; digit <= 9; digit++) if (String(digit) !== ch) found.push(`${subject} ${number.slice(0, i)}${digit}${number.slice(i + 1)}`);
  });
  return found;
}

/**
 * Why given courses with no rule covering them transfer nothing: their rules are not in force at
 * the date, or a rule exists for a code one digit away (a renumbering or a typo), or there is none.
 * The neighbours' rules come from the transfer index in one batch read (or from memory).
 */
export async function nearMissesFor(args: {
  sender: string;
  uncovered: string[];
  rules: TransferRule[];
  asOf: string;
  /** When each given course was completed: its rules are checked on that date. */
  completedOn?: Map<string, string>;
  /** Reads the pair's rules for codes from the transfer index. */
  readIndexed: (codes: string[]) => Promise<TransferRule[]>;
}): Promise<NearMiss[]> {
  const { sender, asOf } = args;
  const on = (code: string) => dateFor([code], asOf, args.completedOn);
  const own = (code: string) => args.rules.filter((r) => r.sourceCourses.some((c) => c.code === code) && !inForce(r, on(code))).sort(byContent);
  const needSimilar = args.uncovered.filter((code) => own(code).length === 0);
  const candidates = await similarCandidates(args, needSimilar);
  return args.uncovered.map((code) => {
    const ended = own(code);
    if (ended.length) return { course: `${sender}:${code}`, reason: 'not-in-force' as const, suggestions: ended.map(ruleSummary), confidence: 0.4 };
    const similar = candidates.filter((r) => inForce(r, on(code)) && r.sourceCourses.some((c) => similarCode(c.code, code))).sort(byContent);
    return similar.length
      ? { course: `${sender}:${code}`, reason: 'similar-code' as const, suggestions: similar.slice(0, 5).map(ruleSummary), confidence: 0.3 }
      : { course: `${sender}:${code}`, reason: 'no-rule' as const, suggestions: [], confidence: 0.2 };
  });

  async function similarCandidates(from: typeof args, codes: string[]): Promise<TransferRule[]> {
    return codes.length ? from.readIndexed([...new Set(codes.flatMap(neighbours))]) : [];
  }
}
