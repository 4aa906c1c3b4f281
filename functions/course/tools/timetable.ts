import { parseCourseRef } from '../../catalog/course-ref.js';
import { institutionId } from '../../catalog/institutions.js';
import { DomainError } from '../../platform/domain-error.js';
import { pageOf } from '../../mcp/tools/pagination.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse, type LoadedCourse } from '../course-lookup.js';
import { timetableContract } from '../contracts/timetable.js';
import type { Combination } from '../timetable/solver.js';
import { combinationCalendar } from '../timetable/timetable-calendar.js';
import { buildTimetable, type Pin, type Timetable } from '../timetable/timetable.js';
import { clockOf, dayIndex, isTimed, type Day } from '../timetable/week.js';

export const timetableTool = bindCatalogTool(timetableContract, async (args, ctx) => {
  const institution = args.institution === undefined ? undefined : institutionOf(args.institution);
  const refs = args.courses.map((input, i) => refOf(input, institution, `courses.${i}`));
  const unique = [...new Map(refs.map((ref) => [ref, ref])).values()];
  const loaded = await Promise.all(unique.map((ref) => loadCourse(ctx, ref, `courses.${refs.indexOf(ref)}`)));
  const pins = (args.sections ?? []).map((input, index) => pinOf(input, index, loaded, institution));
  const timetable = buildTimetable(
    loaded.map(({ view, bundle }) => ({ ref: view.ref, code: view.code, title: view.title, sections: bundle.sections })),
    args.term,
    { notBefore: args.notBefore, notAfter: args.notAfter, daysOff: args.daysOff as Day[] | undefined, ranking: args.rank },
    pins,
  );
  const ranked = timetable.combinations.map((combination, i) => ({ rank: i + 1, combination }));
  const query = [timetable.term, unique, args.notBefore, args.notAfter, args.daysOff, args.rank, args.sections];
  const page = pageOf(ranked, args, ctx.services.cursors, { tool: ctx.toolName, query });
  const calendar = { term: timetable.term, span: timetable.span, codes: new Map(loaded.map((c) => [c.view.ref, c.view.code])), titles: new Map(loaded.map((c) => [c.view.ref, c.view.title])), now: ctx.now() };
  const placed = timetable.courses.filter((c) => c.status === 'placed' || c.status === 'no-fixed-times').length;
  return {
    data: {
      ...page,
      items: page.items.map(({ rank, combination }) => ({ rank, ...describeCombination(combination), ...(args.ics ? { ics: combinationCalendar(combination, calendar) } : {}) })),
      term: timetable.term,
      termDates: timetable.span,
      courses: timetable.courses,
      conflicts: timetable.conflicts.map((conflict) => ({ ...conflict, clashes: conflict.clashes.map(({ a, b }) => ({ a: sideOf(a), b: sideOf(b) })) })),
      complete: timetable.complete,
      availableTerms: timetable.availableTerms,
    },
    hints: {
      confidence: [
        { name: 'courses-placed', value: timetable.courses.length ? placed / timetable.courses.length : 0 },
        { name: 'search-complete', value: timetable.complete ? 1 : 0.6 },
        { name: 'term-dates-from-sections', value: timetable.span.from === 'sections' ? 1 : 0.5, weight: 0.5 },
      ],
      nextActions: nextActions(timetable),
      assumptions: [
        'Labs and tutorials pair with the lecture of their own section group (SFU D100 with D101-D199); sections at the same times are interchangeable',
        'Seats and registration restrictions are not checked',
      ],
      validityPeriod: 'medium',
    },
    ...(timetable.conflicts.length ? { nextStep: timetable.conflicts.map((c) => c.message).join(' ') } : {}),
  };
});

function institutionOf(input: string): string {
  const id = institutionId(input);
  if (!id) throw DomainError.invalid(`"${input}" is not an institution we know.`, [{ field: 'institution', message: 'use an id from tn_course_institutions, e.g. "sfu"' }]);
  return id;
}

function refOf(input: string, institution: string | undefined, field: string): string {
  if (!input.includes(':') && !institution) {
    throw DomainError.invalid(`"${input}" names no institution.`, [{ field, message: 'write "sfu:CMPT 225", or give institution' }]);
  }
  const ref = parseCourseRef(input, institution);
  if (!ref) throw DomainError.invalid(`"${input}" is not a course reference like "sfu:CMPT 225".`, [{ field, message: 'expected institution:SUBJECT NUMBER' }]);
  return ref.ref;
}

/** "CMPT 225 D100" or "sfu:CMPT 225 D100": the last word is the section, the rest names one of the courses. */
function pinOf(input: string, index: number, courses: LoadedCourse[], institution: string | undefined): Pin {
  const field = `sections.${index}`;
  const match = /^(.*\S)\s+(\S+)$/.exec(input.trim());
  const named = match ? parseCourseRef(match[1]!, institution ?? (input.includes(':') ? undefined : courses[0]?.ref.institution)) : undefined;
  const course = named && courses.find((c) => c.view.ref === named.ref);
  if (!match || !course) {
    throw DomainError.invalid(`"${input}" is not a section of one of the courses, like "CMPT 225 D100".`, [{ field, message: 'course code of one of courses, then the section' }]);
  }
  return { index, course: course.view.ref, section: match[2]!.toUpperCase() };
}

function describeCombination(combination: Combination) {
  const sections = combination.options.flatMap((option) =>
    option.placements.map((placement, i) => ({
      course: option.course,
      section: placement.section.section,
      kind: placement.kind,
      role: i === 0 ? ('enrolment' as const) : ('component' as const),
      sameTime: placement.sameTime.map((s) => s.section),
      ...(placement.section.classNumber ? { classNumber: placement.section.classNumber } : {}),
      instructors: placement.section.instructors,
      ...(placement.section.campus ? { campus: placement.section.campus } : {}),
    })),
  );
  // Times exactly as the section gives them: the stored strings, never re-rendered from minutes.
  const meetings = combination.options
    .flatMap((option) =>
      option.placements.flatMap(({ section }) =>
        section.meetings.filter(isTimed).flatMap((m) =>
          m.days.map((day) => ({
            course: option.course,
            section: section.section,
            kind: m.type,
            day,
            start: m.startTime!,
            end: m.endTime!,
            ...((m.campus ?? section.campus) ? { campus: m.campus ?? section.campus } : {}),
            ...(m.room ? { room: m.room } : {}),
            ...(m.startDate ? { startDate: m.startDate } : {}),
            ...(m.endDate ? { endDate: m.endDate } : {}),
          })),
        ),
      ),
    )
    .sort((a, b) => dayIndex(a.day) - dayIndex(b.day) || a.start.localeCompare(b.start) || a.course.localeCompare(b.course) || (a.startDate ?? '').localeCompare(b.startDate ?? ''));
  const { shape } = combination;
  return {
    sections,
    meetings,
    week: {
      days: shape.days,
      gapMinutes: shape.gapMinutes,
      campusChanges: shape.campusChanges,
      rushedCampusChanges: shape.rushedCampusChanges,
      campuses: shape.campuses,
      earliestStart: shape.earliestStart === null ? null : clockOf(shape.earliestStart),
      latestEnd: shape.latestEnd === null ? null : clockOf(shape.latestEnd),
    },
  };
}

const sideOf = (side: { course: string; section: string; day: Day; start: number; end: number }) => ({ ...side, start: clockOf(side.start), end: clockOf(side.end) });

function nextActions(timetable: Timetable) {
  if (timetable.conflicts.length) {
    return [{ action: 'find-alternative', priority: 'high' as const, tool: 'tn_course_similar', description: 'a course that clashes could be swapped for a similar one', data: { course: timetable.conflicts[0]!.courses[0]! } }];
  }
  const first = timetable.combinations[0];
  return first ? [{ action: 'open-section', priority: 'low' as const, tool: 'tn_course_section_get', data: { course: first.options[0]!.course, term: timetable.term, section: first.options[0]!.placements[0]!.section.section } }] : [];
}
