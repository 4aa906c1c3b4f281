import type { CourseOption, CourseOptions, PlacedSlot } from './section-options.js';
import { DAYS, slotsClash, type Day, type Ranking, type Slot } from './week.js';

export type { Ranking } from './week.js';

/** What a week looks like: what a student weighs between two timetables. */
export interface WeekShape {
  days: number;
  /** Idle minutes between classes on the same day, beyond a 10-minute walk between rooms. */
  gapMinutes: number;
  /** Same-day moves between campuses (Burnaby to Surrey is an hour away). */
  campusChanges: number;
  /** Of those, moves with under an hour to get there: hardly possible. */
  rushedCampusChanges: number;
  /** Campuses attended in the week. */
  campuses: number;
  earliestStart: number | null;
  latestEnd: number | null;
  /** Mean of each day's first start, for "late-start". */
  meanFirstStart: number | null;
}

export interface Combination {
  options: CourseOption[];
  shape: WeekShape;
}

interface Clash {
  a: { course: string; section: string; day: Day; start: number; end: number };
  b: { course: string; section: string; day: Day; start: number; end: number };
}

/** A set of courses that can never be taken together, with examples of the meetings that collide. */
export interface Conflict {
  courses: string[];
  clashes: Clash[];
}

export interface Solution {
  combinations: Combination[];
  /** False when the search stopped at its budget: the combinations are the best of those found. */
  complete: boolean;
  /** When nothing fits: the smallest sets of courses that cannot fit together. */
  conflicts: Conflict[];
}

export interface SolveLimits {
  maxCombinations: number;
  maxSteps: number;
}

const PASSING_MINUTES = 10;
/** Burnaby to Surrey or Vancouver by transit: about an hour. */
const TRAVEL_MINUTES = 60;
const DEFAULT_LIMITS: SolveLimits = { maxCombinations: 20_000, maxSteps: 2_000_000 };
const CLASH_EXAMPLES = 3;

/** Every combination of one option per course with no two meetings overlapping, best first for `ranking`. */
export function solve(courses: CourseOptions[], ranking: Ranking = 'compact', limits: SolveLimits = DEFAULT_LIMITS): Solution {
  const order = courses.map((_, i) => i).sort((a, b) => courses[a]!.options.length - courses[b]!.options.length || a - b);
  const compatible = pairwise(courses);
  const found: number[][] = [];
  const search = enumerate(order, courses, compatible, limits, (choice) => void found.push(choice));
  const combinations = found.map((choice) => {
    const options = choice.map((optionIndex, courseIndex) => courses[courseIndex]!.options[optionIndex]!);
    return { options, shape: weekShape(options.flatMap((o) => o.slots)) };
  });
  const key = rankKey(ranking);
  // Stable: equal weeks keep the order of the sections' names.
  combinations.sort((x, y) => compareKeys(key(x.shape), key(y.shape)));
  const conflicts = combinations.length === 0 && search.complete ? smallestConflicts(courses, compatible, limits) : [];
  return { combinations, complete: search.complete, conflicts };
}

type Compatibility = (courseA: number, optionA: number, courseB: number, optionB: number) => boolean;

/** Whether two options of two courses can be taken together, computed once per pair. */
function pairwise(courses: CourseOptions[]): Compatibility {
  const cache = new Map<string, boolean>();
  return (ca, oa, cb, ob) => {
    const key = ca < cb ? `${ca}:${oa}:${cb}:${ob}` : `${cb}:${ob}:${ca}:${oa}`;
    let ok = cache.get(key);
    if (ok === undefined) {
      ok = firstClash(courses[ca]!.options[oa]!, courses[cb]!.options[ob]!) === undefined;
      cache.set(key, ok);
    }
    return ok;
  };
}

function firstClash(a: CourseOption, b: CourseOption): [PlacedSlot, PlacedSlot] | undefined {
  for (const x of a.slots) for (const y of b.slots) if (slotsClash(x, y)) return [x, y];
  return undefined;
}

/** Depth-first over courses with few options first; `emit` gets option indexes by course index. */
function enumerate(order: number[], courses: CourseOptions[], compatible: Compatibility, limits: SolveLimits, emit: (choice: number[]) => void): { complete: boolean; count: number } {
  const choice = new Array<number>(courses.length).fill(-1);
  let steps = 0;
  let count = 0;
  let stopped = false;
  const visit = (depth: number): void => {
    if (stopped) return;
    if (depth === order.length) {
      emit([...choice]);
      if (++count >= limits.maxCombinations) stopped = true;
      return;
    }
    const course = order[depth]!;
    for (let option = 0; option < courses[course]!.options.length && !stopped; option++) {
      if (++steps > limits.maxSteps) {
        stopped = true;
        return;
      }
      let fits = true;
      for (let d = 0; d < depth && fits; d++) fits = compatible(course, option, order[d]!, choice[order[d]!]!);
      if (!fits) continue;
      choice[course] = option;
      visit(depth + 1);
    }
    choice[course] = -1;
  };
  visit(0);
  return { complete: !stopped, count };
}

/**
 * Nothing fits: name the smallest sets of courses that cannot fit together: pairs first (every option of
 * one clashes with every option of the other), then triples, else all the courses at once.
 */
function smallestConflicts(courses: CourseOptions[], compatible: Compatibility, limits: SolveLimits): Conflict[] {
  const indexes = courses.map((_, i) => i);
  for (let size = 2; size <= Math.min(3, courses.length - 1); size++) {
    const infeasible = subsets(indexes, size).filter((subset) => {
      const search = enumerate(subset, courses, compatible, { maxCombinations: 1, maxSteps: limits.maxSteps }, () => undefined);
      return search.complete && search.count === 0;
    });
    if (infeasible.length) return infeasible.map((subset) => conflictOf(subset.map((i) => courses[i]!)));
  }
  return [conflictOf(courses)];
}

function subsets(items: number[], size: number): number[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, i) => subsets(items.slice(i + 1), size - 1).map((rest) => [item, ...rest]));
}

/** A few distinct collisions between the courses' options, to show what stands in the way. */
function conflictOf(courses: CourseOptions[]): Conflict {
  const clashes: Clash[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < courses.length && clashes.length < CLASH_EXAMPLES; i++) {
    for (let j = i + 1; j < courses.length && clashes.length < CLASH_EXAMPLES; j++) {
      for (const a of courses[i]!.options) {
        for (const b of courses[j]!.options) {
          const clash = firstClash(a, b);
          if (!clash || clashes.length >= CLASH_EXAMPLES) continue;
          const key = `${a.course} ${clash[0].section}|${b.course} ${clash[1].section}`;
          if (seen.has(key)) continue;
          seen.add(key);
          clashes.push({ a: { course: a.course, ...when(clash[0]) }, b: { course: b.course, ...when(clash[1]) } });
        }
      }
    }
  }
  return { courses: courses.map((c) => c.course), clashes };
}

const when = (slot: PlacedSlot) => ({ section: slot.section, day: slot.day, start: slot.start, end: slot.end });

/** Meetings on single dates (a fortnightly series listed date by date) count as their weekday's classes. */
export function weekShape(slots: Slot[]): WeekShape {
  const byDay = new Map<Day, Slot[]>();
  for (const slot of slots) (byDay.get(slot.day) ?? byDay.set(slot.day, []).get(slot.day)!).push(slot);
  let gapMinutes = 0;
  let campusChanges = 0;
  let rushedCampusChanges = 0;
  const firstStarts: number[] = [];
  for (const day of DAYS) {
    const list = byDay.get(day)?.sort((a, b) => a.start - b.start || a.end - b.end);
    if (!list) continue;
    firstStarts.push(list[0]!.start);
    let reach = list[0]!.end;
    let campus = list[0]!.campus;
    for (const slot of list.slice(1)) {
      if (slot.start > reach) gapMinutes += Math.max(0, slot.start - reach - PASSING_MINUTES);
      if (slot.campus && campus && slot.campus !== campus) {
        campusChanges++;
        if (slot.start - reach < TRAVEL_MINUTES) rushedCampusChanges++;
      }
      reach = Math.max(reach, slot.end);
      campus = slot.campus ?? campus;
    }
  }
  return {
    days: byDay.size,
    gapMinutes,
    campusChanges,
    rushedCampusChanges,
    campuses: new Set(slots.map((s) => s.campus).filter(Boolean)).size,
    earliestStart: slots.length ? Math.min(...slots.map((s) => s.start)) : null,
    latestEnd: slots.length ? Math.max(...slots.map((s) => s.end)) : null,
    meanFirstStart: firstStarts.length ? firstStarts.reduce((a, b) => a + b, 0) / firstStarts.length : null,
  };
}

/**
 * Lower is better, compared in order. Travel comes first in every ranking: a same-day move between
 * campuses with under an hour to make it, then any same-day move (but for "late-start"), then a week
 * spread over more campuses. A week with no timed class starts latest.
 */
function rankKey(ranking: Ranking): (shape: WeekShape) => number[] {
  const late = (shape: WeekShape) => -(shape.meanFirstStart ?? 24 * 60);
  switch (ranking) {
    case 'fewest-days':
      return (s) => [s.rushedCampusChanges, s.campusChanges, s.campuses, s.days, s.gapMinutes, late(s)];
    case 'late-start':
      return (s) => [s.rushedCampusChanges, late(s), s.campusChanges, s.campuses, s.gapMinutes, s.days];
    case 'compact':
      return (s) => [s.rushedCampusChanges, s.campusChanges, s.campuses, s.gapMinutes, s.days, late(s)];
  }
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
