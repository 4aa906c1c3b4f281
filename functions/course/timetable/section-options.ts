import type { Section } from '../../catalog/catalog-model.js';
import { isTimed, slotsClash, slotsOf, type Slot } from './week.js';

/**
 * What a student enrols in for one course: one enrolment section (a lecture, or a seminar, studio…)
 * and one section of each kind of component that section requires (a lab, a tutorial). Read from the
 * section data itself (ADR 0040):
 * - SFU names sections by group: `D100` is the enrolment section of group D1 and `D101`…`D199` are
 *   its components; `E300` heads group E3. A group without an `x00` (`D001`, `G002`…) is a set of
 *   sections that each stand alone.
 * - Sections outside that naming (`LA01`, `LAB1`, `LAS2`) whose meetings are only labs or tutorials are
 *   components any enrolment section of the course may take, preferring those on its own campus; the
 *   rest (`OL01` online, `BLS1` blended) are enrolment sections of their own.
 * - A course with no grouped names (Langara: `001`, `M01`, `W01`) has self-contained sections: each
 *   section carries its lecture and lab meetings itself.
 * - `OPL` sections are open-lab hours (`Mo-Fr 8:30-16:20`), never a required class; sections with no
 *   fixed time are left out of the week while timed ones exist; cancelled sections are dropped.
 */

const GROUPED = /^([A-Z]+)(\d)(\d{2})$/;
/** Meeting types that, outside SFU's grouped names, make a section a component rather than an enrolment choice. */
const COMPONENT_TYPES = new Set(['LAB', 'TUT', 'RQL']);
const OPEN_LAB_TYPES = new Set(['OPL']);

/** One place in an option (the enrolment section or one component), with sections at exactly the same times. */
interface Placement {
  section: Section;
  kind: string;
  /** Other sections that meet at exactly the same times and campus: interchangeable for the timetable. */
  sameTime: Section[];
}

/** A slot of an option, named by the section and meeting type it comes from. */
export interface PlacedSlot extends Slot {
  section: string;
  type: string;
}

export interface CourseOption {
  course: string;
  /** The enrolment section first, then one component per required kind. */
  placements: Placement[];
  slots: PlacedSlot[];
}

export interface CourseOptions {
  course: string;
  /** Options that fit (after `accept`), sections at the same times merged. */
  options: CourseOption[];
  /** How many distinct enrolments exist before `accept` (0: the course has no usable sections). */
  available: number;
  /** Sections left out because they have no fixed time (online, arranged), by section name. */
  untimed: string[];
  /** Whether no enrolment has a fixed time (an online-only course): it fits anywhere. */
  noFixedTimes: boolean;
}

/** The meeting types a section has in the week ("LEC", "LAB", "LEC+LAB"); all its types when it has no timed one. */
function kindOf(section: Section): string {
  const timed = section.meetings.filter(isTimed);
  const types = [...new Set((timed.length ? timed : section.meetings).map((m) => m.type))].sort();
  return types.join('+') || 'OTHER';
}

const hasTimes = (section: Section) => section.meetings.some(isTimed);
const onlyTypes = (section: Section, types: Set<string>) => {
  const timed = section.meetings.filter(isTimed);
  return timed.length > 0 && timed.every((m) => types.has(m.type));
};
const campusOf = (section: Section) => section.campus ?? section.meetings.find((m) => m.campus)?.campus;
const bySectionName = (a: Section, b: Section) => a.section.localeCompare(b.section, 'en', { numeric: true });

interface Enrolment {
  head: Section;
  /** The head's own group members (SFU `D101`… for `D100`). */
  members: Section[];
}

function enrolments(sections: Section[]): { enrolments: Enrolment[]; courseWide: Section[]; untimed: Section[] } {
  const groups = new Map<string, { head?: Section; members: Section[] }>();
  const loose: Section[] = [];
  for (const section of sections) {
    const match = GROUPED.exec(section.section);
    if (!match) {
      loose.push(section);
      continue;
    }
    const key = `${match[1]}${match[2]}`;
    const group = groups.get(key) ?? groups.set(key, { members: [] }).get(key)!;
    if (match[3] === '00') group.head = section;
    else group.members.push(section);
  }
  const found: Enrolment[] = [];
  for (const group of groups.values()) {
    if (group.head) found.push({ head: group.head, members: group.members });
    else found.push(...group.members.map((head) => ({ head, members: [] })));
  }
  const hasHeads = [...groups.values()].some((group) => group.head);
  const courseWide: Section[] = [];
  const untimed: Section[] = [];
  for (const section of loose) {
    if (!hasTimes(section)) untimed.push(section);
    else if (onlyTypes(section, OPEN_LAB_TYPES)) continue;
    else if (hasHeads && onlyTypes(section, COMPONENT_TYPES)) courseWide.push(section);
    else found.push({ head: section, members: [] });
  }
  return { enrolments: found, courseWide, untimed };
}

/** The component lists an enrolment section needs, one list per kind: its own group's, then course-wide ones it lacks. */
function requiredComponents(enrolment: Enrolment, courseWide: Section[]): Section[][] {
  const byKind = new Map<string, Section[]>();
  for (const member of enrolment.members.filter(hasTimes)) {
    const kind = kindOf(member);
    (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(member);
  }
  const ownTypes = new Set(enrolment.head.meetings.filter(isTimed).map((m) => m.type));
  const wide = new Map<string, Section[]>();
  for (const section of courseWide) {
    const kind = kindOf(section);
    if (!byKind.has(kind) && !kind.split('+').every((type) => ownTypes.has(type))) (wide.get(kind) ?? wide.set(kind, []).get(kind)!).push(section);
  }
  const campus = campusOf(enrolment.head);
  for (const [kind, candidates] of wide) {
    const near = candidates.filter((section) => campus !== undefined && campusOf(section) === campus);
    byKind.set(kind, near.length ? near : candidates);
  }
  return [...byKind.keys()].sort().map((kind) => byKind.get(kind)!.sort(bySectionName));
}

function product(lists: Section[][]): Section[][] {
  return lists.reduce<Section[][]>((acc, list) => acc.flatMap((prefix) => list.map((item) => [...prefix, item])), [[]]);
}

const slotsOfSections = (sections: Section[]): PlacedSlot[] =>
  sections.flatMap((section) =>
    section.meetings.flatMap((meeting) => slotsOf(meeting).map((slot) => ({ ...slot, campus: slot.campus ?? section.campus, section: section.section, type: meeting.type }))),
  );

function clashesWithItself(slots: Slot[]): boolean {
  return slots.some((a, i) => slots.slice(i + 1).some((b) => slotsClash(a, b)));
}

/** What makes two sections interchangeable in a timetable: the same timed meetings on the same campus. */
function timeSignature(section: Section): string {
  return JSON.stringify(
    section.meetings
      .filter(isTimed)
      .map((m) => [m.type, m.days.join(''), m.startTime, m.endTime, m.startDate ?? '', m.endDate ?? '', m.campus ?? section.campus ?? ''])
      .sort(),
  );
}

/**
 * Every way to take one course in a term, as options of whole enrolments (enrolment section plus one
 * component per required kind), those that clash with themselves dropped, those `accept` refuses
 * dropped, and options that differ only by sections meeting at the same times merged into one.
 */
export function courseOptions(course: string, sections: Section[], accept: (sections: Section[]) => boolean = () => true): CourseOptions {
  const live = sections.filter((section) => section.seats?.status !== 'cancelled').sort(bySectionName);
  const { enrolments: found, courseWide, untimed } = enrolments(live);
  // An online-only course: its sections are the enrolments, with nothing to place in the week.
  const onlyUntimed = found.length === 0;
  const all = onlyUntimed ? untimed.map((head) => ({ head, members: [] })) : found;
  let available = 0;
  let timed = 0;
  const kept: Section[][] = [];
  for (const enrolment of all) {
    for (const components of product(requiredComponents(enrolment, courseWide))) {
      const chosen = [enrolment.head, ...components];
      const slots = slotsOfSections(chosen);
      if (clashesWithItself(slots)) continue;
      available++;
      if (slots.length) timed++;
      if (accept(chosen)) kept.push(chosen);
    }
  }
  return { course, options: merge(course, kept), available, untimed: onlyUntimed ? [] : untimed.map((s) => s.section), noFixedTimes: available > 0 && timed === 0 };
}

/**
 * Options of one enrolment section form a product of its component lists, so those with equal times
 * merge place by place. Enrolment sections merge only when their components are the very same sections
 * (MATH 232 D100 and D200, both MWF 11:30 with no component): merging D100+D101 with D200+D201 would
 * suggest D100+D201.
 */
function merge(course: string, options: Section[][]): CourseOption[] {
  const withinHead = new Map<string, Placement[]>();
  for (const sections of options) {
    const key = JSON.stringify([sections[0]!.section, sections.map(timeSignature)]);
    const merged = withinHead.get(key);
    if (!merged) withinHead.set(key, sections.map((section) => ({ section, kind: kindOf(section), sameTime: [] })));
    else sections.forEach((section, i) => addSameTime(merged[i]!, section));
  }
  const acrossHeads = new Map<string, Placement[]>();
  for (const placements of withinHead.values()) {
    const components = placements.slice(1).map((p) => [p.section, ...p.sameTime].map((s) => s.section).join('|'));
    const key = JSON.stringify([timeSignature(placements[0]!.section), components]);
    const merged = acrossHeads.get(key);
    if (!merged) acrossHeads.set(key, placements);
    else addSameTime(merged[0]!, placements[0]!.section);
  }
  return [...acrossHeads.values()].map((placements) => ({ course, placements, slots: slotsOfSections(placements.map((p) => p.section)) }));
}

function addSameTime(placement: Placement, section: Section): void {
  if (placement.section === section || placement.sameTime.includes(section)) return;
  placement.sameTime.push(section);
  placement.sameTime.sort(bySectionName);
}
