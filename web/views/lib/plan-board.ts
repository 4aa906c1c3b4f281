/**
 * A tn_transfer_resolve result as a board of cards: one card per planned rule (the courses it uses
 * and what they earn), then every given course the plan leaves out with the best reason the result
 * gives for it. Only fields the view needs are typed; later additions to the result pass through.
 */

interface ResolveTarget {
  kind: string;
  text: string;
  credits: number | null;
  code?: string;
}

export interface ResolveMatch {
  ruleId: string;
  usedCourses: string[];
  missingCourses: string[];
  targets: ResolveTarget[];
  targetCredits: number | null;
  condition: string | null;
  effectiveStart: string;
  effectiveEnd: string | null;
  evidence: { label: string; url: string }[];
  confidence: number;
  conditions?: { status: string; wouldHoldIf: string }[];
  /** The award that applies when it is not `targets` (a conditional or partial award). */
  award?: { basis: string; targets: { text: string; credits: number | null }[]; credits: number | null; because: string };
}

export interface ResolveResult {
  sourceInstitution: string;
  targetInstitution: string;
  asOfDate: string;
  exactMatches: ResolveMatch[];
  partialMatches: ResolveMatch[];
  conditionalMatches?: ResolveMatch[];
  noCreditMatches?: ResolveMatch[];
  individualAssessmentMatches?: ResolveMatch[];
  nearMisses: { course: string; reason: string; suggestions: { targets: string[]; effectiveEnd: string | null }[] }[];
  normalizedCourses: { input: string; code: string }[];
  plan: {
    ruleIds: string[];
    totalCredits: number;
    optimal: boolean;
    rules?: { ruleId: string; consumes: string[]; credits: number; awards?: string[]; basis?: string }[];
  };
}

export type CardStatus = 'planned' | 'conditional' | 'partial' | 'elsewhere' | 'assessment' | 'no-credit' | 'no-rule';

interface Award {
  text: string;
  credits: number | null;
}

export interface BoardCard {
  key: string;
  status: CardStatus;
  /** Sending course codes this card is about ("CPSC 1160"). */
  courses: string[];
  awards: Award[];
  credits: number | null;
  /** Why it is in its lane: the condition, the missing courses, the wording that gives a partial award. */
  notes: string[];
  ruleId?: string;
  evidence: { label: string; url: string }[];
}

interface Lane {
  id: 'plan' | 'could' | 'none';
  title: string;
  cards: BoardCard[];
}

export interface Board {
  lanes: Lane[];
  totalCredits: number;
  optimal: boolean;
  /** Every given course, as codes. */
  courses: string[];
  transferring: string[];
}

/** "langara:cpsc1160" → "CPSC 1160". */
export function courseCode(ref: string): string {
  const code = ref.slice(ref.indexOf(':') + 1).trim().toUpperCase().replace(/\s+/g, ' ');
  return code.replace(/^([A-Z]{2,6})\s?(\d)/, '$1 $2');
}

const awardsOf = (match: ResolveMatch): Award[] =>
  match.award ? match.award.targets.map((t) => ({ text: t.text, credits: t.credits })) : match.targets.map((t) => ({ text: t.text, credits: t.credits }));

function card(status: CardStatus, match: ResolveMatch, courses: string[], notes: string[], credits = match.award?.credits ?? match.targetCredits): BoardCard {
  return { key: `${status}:${match.ruleId}`, status, courses, awards: awardsOf(match), credits, notes, ruleId: match.ruleId, evidence: match.evidence };
}

const openConditions = (match: ResolveMatch) => (match.conditions ?? []).filter((c) => c.status !== 'holds').map((c) => `Counts if ${c.wouldHoldIf}`);

export function planBoard(result: ResolveResult, givenInput: string[] = []): Board {
  const exact = new Map(result.exactMatches.map((m) => [m.ruleId, m]));
  const everyMatch = [
    ...result.exactMatches,
    ...result.partialMatches,
    ...(result.conditionalMatches ?? []),
    ...(result.noCreditMatches ?? []),
    ...(result.individualAssessmentMatches ?? []),
  ];
  const renamed = new Map(result.normalizedCourses.map((n) => [courseCode(n.input), courseCode(n.code)]));
  const given = new Set<string>();
  for (const input of givenInput) given.add(renamed.get(courseCode(input)) ?? courseCode(input));
  for (const match of everyMatch) for (const used of match.usedCourses) given.add(courseCode(used));
  for (const miss of result.nearMisses) given.add(courseCode(miss.course));

  const planRules =
    result.plan.rules ??
    result.plan.ruleIds.map((ruleId) => ({ ruleId, consumes: exact.get(ruleId)?.usedCourses ?? [], credits: exact.get(ruleId)?.targetCredits ?? 0 }));
  const consumed = new Set<string>();
  const planned: BoardCard[] = [];
  for (const rule of planRules) {
    const match = exact.get(rule.ruleId) ?? everyMatch.find((m) => m.ruleId === rule.ruleId);
    if (!match) continue;
    const courses = rule.consumes.map(courseCode);
    courses.forEach((c) => consumed.add(c));
    planned.push(planCard(match, courses, rule));
  }

  // A rule outside the plan is worth a card only where it speaks for a course the plan leaves out.
  const covered = new Set(consumed);
  const left = (match: ResolveMatch) => match.usedCourses.map(courseCode).filter((c) => !consumed.has(c));
  const could: BoardCard[] = [];
  const none: BoardCard[] = [];
  const add = (list: BoardCard[], made: BoardCard) => {
    list.push(made);
    made.courses.forEach((c) => covered.add(c));
  };
  for (const match of result.conditionalMatches ?? []) if (left(match).length) add(could, card('conditional', match, match.usedCourses.map(courseCode), [...openConditions(match), ...(match.condition ? [match.condition] : [])]));
  for (const match of result.partialMatches) if (left(match).length) add(could, card('partial', match, match.usedCourses.map(courseCode), [`Also needs ${match.missingCourses.map(courseCode).join(', ')}`]));
  for (const match of result.exactMatches) {
    if (planRules.some((r) => r.ruleId === match.ruleId)) continue;
    if (left(match).length) add(could, card('elsewhere', match, match.usedCourses.map(courseCode), ['Not in the plan: a course it needs counts for more in another rule']));
  }
  for (const match of result.individualAssessmentMatches ?? []) if (left(match).length) add(none, card('assessment', match, match.usedCourses.map(courseCode), ['Assessed individually by the receiving institution']));
  for (const match of result.noCreditMatches ?? []) if (left(match).length) add(none, card('no-credit', match, match.usedCourses.map(courseCode), match.condition ? [match.condition] : []));
  for (const course of given) {
    if (covered.has(course)) continue;
    const miss = result.nearMisses.find((m) => courseCode(m.course) === course);
    const notes =
      miss?.reason === 'not-in-force'
        ? [`A rule existed${miss.suggestions[0]?.effectiveEnd ? ` until ${miss.suggestions[0].effectiveEnd}` : ''}; none is in force on ${result.asOfDate}`]
        : miss?.reason === 'similar-code'
          ? [`No rule; similar codes have one: ${miss.suggestions.map((s) => s.targets.join(', ')).join('; ')}`]
          : [`No rule in force on ${result.asOfDate}`];
    none.push({ key: `no-rule:${course}`, status: 'no-rule', courses: [course], awards: [], credits: null, notes, evidence: [] });
  }

  return {
    lanes: [
      { id: 'plan', title: 'In your plan', cards: planned },
      { id: 'could', title: 'Could count', cards: could },
      { id: 'none', title: 'No credit', cards: none },
    ],
    totalCredits: result.plan.totalCredits,
    optimal: result.plan.optimal,
    courses: [...given],
    transferring: [...consumed],
  };
}

function planCard(match: ResolveMatch, courses: string[], rule: { credits: number; awards?: string[]; basis?: string }): BoardCard {
  const made = card('planned', match, courses, [], rule.credits);
  // What the plan takes from a rule whose wording offers more than one award.
  if (rule.awards?.length) made.awards = rule.awards.map((text) => ({ text, credits: null }));
  if (match.award && (rule.basis === undefined || rule.basis === match.award.basis)) made.notes.push(`${labelOfBasis(match.award.basis)}: ${match.award.because}`);
  else if (rule.basis && rule.basis !== 'main') made.notes.push(labelOfBasis(rule.basis));
  if (match.condition) made.notes.push(match.condition);
  return made;
}

function labelOfBasis(basis: string): string {
  switch (basis) {
    case 'conditional':
      return 'Conditional award (its condition holds)';
    case 'partial':
      return 'Partial award';
    case 'alternative':
      return 'Alternative award';
    case 'situational':
      return 'One of two awards applies';
    default:
      return basis;
  }
}
