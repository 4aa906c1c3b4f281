/**
 * The transfer plan as an exact optimisation: choose options (a rule with the given courses it
 * consumes) so that each given course is consumed at most once and each specific receiving course
 * is awarded at most once, maximising credit; among equal credit, specific courses over generic over
 * elective, then newer rules, then fewer courses consumed, then a content key (never rule ids or
 * input order). Options interact only through shared courses and shared specific targets, so each
 * connected component is solved on its own by branch and bound.
 */

export interface PlanOption {
  /** Identifies the option's match for the caller; options with the same id exclude each other (a rule applies once). */
  id: string;
  /** Indices of the given courses it consumes. */
  consumes: number[];
  /** Specific receiving courses it awards (`inst:CODE`). */
  claims: string[];
  /** Credits in hundredths (integers keep sums exact). */
  credits: number;
  /** Credit-weighted specificity: specific course 2, generic 1, elective 0 per credit. */
  specificity: number;
  /** Credit-weighted recency: credits × years since 1990 of the rule's start. */
  recency: number;
  /** Content key for the last tie-break: the rule's normalised text and the courses it consumes. */
  key: string;
}

export interface PlanResult {
  chosen: PlanOption[];
  optimal: boolean;
}

type Score = [credits: number, specificity: number, recency: number, fewerCourses: number];

const NODE_BUDGET = 200_000;

export function optimisePlan(options: PlanOption[]): PlanResult {
  const sorted = [...options].sort(byValueThenKey);
  let optimal = true;
  const chosen: PlanOption[] = [];
  for (const component of components(sorted)) {
    const result = solveComponent(component);
    optimal &&= result.optimal;
    chosen.push(...result.chosen);
  }
  return { chosen: chosen.sort(byValueThenKey), optimal };
}

function scoreOf(option: PlanOption): Score {
  return [option.credits, option.specificity, option.recency, -option.consumes.length];
}

function byValueThenKey(a: PlanOption, b: PlanOption): number {
  const [sa, sb] = [scoreOf(a), scoreOf(b)];
  for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return sb[i]! - sa[i]!;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function compareScores(a: Score, b: Score): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Options linked by a shared course or a shared specific target, in a stable order. */
function components(options: PlanOption[]): PlanOption[][] {
  const parent = options.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  options.forEach((option, i) => {
    for (const resource of resourcesOf(option)) {
      const other = owner.get(resource);
      if (other === undefined) owner.set(resource, i);
      else parent[find(i)] = find(other);
    }
  });
  const groups = new Map<number, PlanOption[]>();
  options.forEach((option, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), option]));
  return [...groups.values()];
}

function resourcesOf(option: PlanOption): string[] {
  return [`r${option.id}`, ...option.consumes.map((c) => `c${c}`), ...option.claims.map((t) => `t${t}`)];
}

function planKey(options: PlanOption[]): string {
  return options.map((o) => o.key).sort().join('\n');
}

function solveComponent(options: PlanOption[]): PlanResult {
  // Optimistic bounds: what the remaining options could add if none of them collided.
  const suffix: Score[] = Array.from({ length: options.length + 1 }, () => [0, 0, 0, 0]);
  for (let i = options.length - 1; i >= 0; i--) {
    const s = scoreOf(options[i]!);
    suffix[i] = [suffix[i + 1]![0] + s[0], suffix[i + 1]![1] + s[1], suffix[i + 1]![2] + s[2], 0];
  }
  const taken = new Set<string>();
  const picked: PlanOption[] = [];
  let best: PlanOption[] = [];
  let bestScore: Score = [-1, 0, 0, 0];
  let bestKey = '';
  let nodes = 0;
  let exhausted = false;

  const fits = (option: PlanOption) => resourcesOf(option).every((resource) => !taken.has(resource));
  const visit = (index: number, score: Score) => {
    if (++nodes > NODE_BUDGET) {
      exhausted = true;
      return;
    }
    const bound: Score = [score[0] + suffix[index]![0], score[1] + suffix[index]![1], score[2] + suffix[index]![2], score[3]];
    if (compareScores(bound, bestScore) < 0) return;
    if (index === options.length) {
      const order = compareScores(score, bestScore);
      const key = order === 0 ? planKey(picked) : '';
      if (order > 0 || (order === 0 && key < bestKey)) [best, bestScore, bestKey] = [[...picked], score, planKey(picked)];
      return;
    }
    const option = options[index]!;
    if (fits(option)) {
      const resources = resourcesOf(option);
      resources.forEach((resource) => taken.add(resource));
      picked.push(option);
      const s = scoreOf(option);
      visit(index + 1, [score[0] + s[0], score[1] + s[1], score[2] + s[2], score[3] + s[3]]);
      picked.pop();
      resources.forEach((resource) => taken.delete(resource));
    }
    visit(index + 1, score);
  };
  visit(0, [0, 0, 0, 0]);
  return { chosen: best, optimal: !exhausted };
}
