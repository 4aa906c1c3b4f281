/**
 * Grade comparison for prerequisite checks. Letter grades use the usual order (A+ > A > … > D > F);
 * percentages compare numerically; letter-vs-percentage goes through UBC's conversion table, and
 * when a letter's band straddles a percentage minimum the answer is honestly "unknown".
 */

export type GradeCheck = 'yes' | 'no' | 'unknown';

const LETTERS = ['F', 'D', 'C-', 'C', 'C+', 'B-', 'B', 'B+', 'A-', 'A', 'A+'] as const;

/** UBC's letter ↔ percentage bands (inclusive), e.g. B is 72–75%. */
const BANDS: Record<(typeof LETTERS)[number], [number, number]> = {
  'A+': [90, 100],
  A: [85, 89],
  'A-': [80, 84],
  'B+': [76, 79],
  B: [72, 75],
  'B-': [68, 71],
  'C+': [64, 67],
  C: [60, 63],
  'C-': [55, 59],
  D: [50, 54],
  F: [0, 49],
};

/** Pass/fail grades: they show the course was passed, not with which letter. */
const PASS_GRADES = new Set(['S', 'P', 'CR', 'SR', 'PASS']);
/** Outcomes that are not a pass, so the course does not count at all. */
const FAILING_GRADES = new Set(['F', 'W', 'WD', 'WF', 'N', 'NC', 'FD', 'U', 'FAIL', 'INC', 'I']);

type Grade = { kind: 'letter'; rank: number } | { kind: 'percent'; value: number } | { kind: 'pass' };

function parseGrade(raw: string): Grade | undefined {
  const text = raw.trim().toUpperCase();
  const percent = /^(\d+(?:\.\d+)?)\s*%?$/.exec(text);
  if (percent) return { kind: 'percent', value: Number(percent[1]) };
  if (PASS_GRADES.has(text)) return { kind: 'pass' };
  const rank = LETTERS.indexOf(text as (typeof LETTERS)[number]);
  return rank >= 0 ? { kind: 'letter', rank } : undefined;
}

function letterRankOfPercent(value: number): number {
  const index = LETTERS.findIndex((letter) => value >= BANDS[letter][0] && (letter === 'A+' || value < BANDS[LETTERS[LETTERS.indexOf(letter) + 1]!][0]));
  return index < 0 ? 0 : index;
}

export function isFailingGrade(grade: string | undefined): boolean {
  return grade !== undefined && FAILING_GRADES.has(grade.trim().toUpperCase());
}

/** Whether `earned` meets the minimum `required`, with a reason fit for an explanation. */
export function meetsGrade(earned: string, required: string): { result: GradeCheck; reason: string } {
  const have = parseGrade(earned);
  const need = parseGrade(required);
  if (!have || !need) return { result: 'unknown', reason: `cannot compare grade "${earned}" with minimum "${required}"` };
  if (need.kind === 'pass') {
    const passed = have.kind === 'pass' || (have.kind === 'letter' ? have.rank >= 1 : have.value >= BANDS.D[0]);
    return { result: passed ? 'yes' : 'no', reason: passed ? `${earned} is a pass` : `${earned} is not a pass` };
  }
  if (have.kind === 'pass') return { result: 'unknown', reason: `${earned} is a pass/fail grade; the minimum is ${required}` };
  if (need.kind === 'letter') {
    const rank = have.kind === 'letter' ? have.rank : letterRankOfPercent(have.value);
    const shown = have.kind === 'percent' ? `${earned} (${LETTERS[rank]} on UBC's scale)` : earned;
    return rank >= need.rank
      ? { result: 'yes', reason: `${shown} meets the minimum ${required}` }
      : { result: 'no', reason: `${shown} is below the minimum ${required}` };
  }
  if (have.kind === 'percent') {
    return have.value >= need.value
      ? { result: 'yes', reason: `${earned} meets the minimum ${required}` }
      : { result: 'no', reason: `${earned} is below the minimum ${required}` };
  }
  const [low, high] = BANDS[LETTERS[have.rank]!];
  if (low >= need.value) return { result: 'yes', reason: `${earned} (${low}–${high}% on UBC's scale) meets the minimum ${required}` };
  if (high < need.value) return { result: 'no', reason: `${earned} (${low}–${high}% on UBC's scale) is below the minimum ${required}` };
  return { result: 'unknown', reason: `${earned} spans ${low}–${high}% on UBC's scale, so it may or may not meet ${required}` };
}
