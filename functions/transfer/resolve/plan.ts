/**
 * The transfer plan as an exact optimisation: choose options (a rule's award with the given courses
 * it consumes) so that no resource is used beyond its capacity (each given course once, each rule
 * once, each specific receiving course once unless the wording makes it repeatable, "only one of"
 * groups, caps) and no option is chosen beside one whose rule precludes what it awards; maximising
 * credit; among equal credit, specific courses over generic over elective, then newer rules, then
 * fewer courses consumed, then a content key (never rule ids or input order). Options interact only
 * through shared resources, so each connected component is solved on its own by branch and bound.
 */

export interface PlanOption {
  /** Identifies the option's match for the caller; options with the same id exclude each other (a rule applies once). */
  id: string;
  /** Indices of the given courses it consumes. */
  consumes: number[];
  /** Specific receiving courses it awards (`inst:CODE`). */
  claims: string[];
  /** Receiving courses (`inst:CODE`) its rule precludes: never chosen beside an option that awards one of them. */
  precludes?: string[];
  /** Further resources it uses and how much (claims of repeatable courses in credit hundredths, groups, caps). */
  uses?: [resource: string, amount: number][];
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

/** `capacities`: how much of a resource the plan may use (1 when absent: each course, rule and specific target once). */
export function optimisePlan(options: PlanOption[], capacities: Map<string, number> = new Map()): PlanResult {
  const sorted = [...options].sort(byValueThenKey);
  let optimal = true;
  const chosen: PlanOption[] = [];
  for (const component of components(sorted)) {
    const result = solveComponent(component, capacities);
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

const usesMemo = new WeakMap<PlanOption, Map<string, number>>();

/** What an option uses: its rule, its courses, its claims (one each unless `uses` says more), and any group or cap. */
function usesOf(option: PlanOption): Map<string, number> {
  const known = usesMemo.get(option);
  if (known) return known;
  const uses = new Map<string, number>([[`r${option.id}`, 1]]);
  usesMemo.set(option, uses);
  for (const c of option.consumes) uses.set(`c${c}`, 1);
  for (const t of option.claims) uses.set(`t${t}`, 1);
  for (const [resource, amount] of option.uses ?? []) uses.set(resource, amount);
  return uses;
}

/** Options linked by a shared resource or a preclusion, in a stable order. */
function components(options: PlanOption[]): PlanOption[][] {
  const parent = options.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  options.forEach((option, i) => {
    for (const resource of [...usesOf(option).keys(), ...(option.precludes ?? []).map((t) => `t${t}`)]) {
      const other = owner.get(resource);
      if (other === undefined) owner.set(resource, i);
      else parent[find(i)] = find(other);
    }
  });
  const groups = new Map<number, PlanOption[]>();
  options.forEach((option, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), option]));
  return [...groups.values()];
}

function planKey(options: PlanOption[]): string {
  return options.map((o) => o.key).sort().join('\n');
}

function solveComponent(options: PlanOption[], capacities: Map<string, number>): PlanResult {
  // Optimistic bounds: what the remaining options could add if none of them collided.
  const suffix: Score[] = Array.from({ length: options.length + 1 }, () => [0, 0, 0, 0]);
  for (let i = options.length - 1; i >= 0; i--) {
    const s = scoreOf(options[i]!);
    suffix[i] = [suffix[i + 1]![0] + s[0], suffix[i + 1]![1] + s[1], suffix[i + 1]![2] + s[2], 0];
  }
  const uses = options.map(usesOf);
  const used = new Map<string, number>();
  const claimed = new Map<string, number>();
  const precluded = new Map<string, number>();
  const picked: PlanOption[] = [];
  let best: PlanOption[] = [];
  let bestScore: Score = [-1, 0, 0, 0];
  let bestKey = '';
  let nodes = 0;
  let exhausted = false;
  const bump = (counts: Map<string, number>, key: string, by: number) => counts.set(key, (counts.get(key) ?? 0) + by);

  const fits = (index: number) => {
    const option = options[index]!;
    for (const [resource, amount] of uses[index]!) if ((used.get(resource) ?? 0) + amount > (capacities.get(resource) ?? 1) + 1e-9) return false;
    if (option.precludes?.some((t) => (claimed.get(t) ?? 0) > 0)) return false;
    return !option.claims.some((t) => (precluded.get(t) ?? 0) > 0);
  };
  const take = (index: number, sign: 1 | -1) => {
    const option = options[index]!;
    for (const [resource, amount] of uses[index]!) bump(used, resource, sign * amount);
    for (const t of option.claims) bump(claimed, t, sign);
    for (const t of option.precludes ?? []) bump(precluded, t, sign);
  };
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
    if (fits(index)) {
      take(index, 1);
      picked.push(option);
      const s = scoreOf(option);
      visit(index + 1, [score[0] + s[0], score[1] + s[1], score[2] + s[2], score[3] + s[3]]);
      picked.pop();
      take(index, -1);
    }
    visit(index + 1, score);
  };
  visit(0, [0, 0, 0, 0]);
  return { chosen: best, optimal: !exhausted };
}
