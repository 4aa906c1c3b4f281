import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findAdapter } from '../../functions/ingest/adapters/index.js';
import type { Section } from '../../functions/catalog/catalog-model.js';
import { DomainError } from '../../functions/platform/domain-error.js';
import { courseOptions, type CourseOption } from '../../functions/course/timetable/section-options.js';
import { solve, weekShape } from '../../functions/course/timetable/solver.js';
import { buildTimetable, type TimetableCourse } from '../../functions/course/timetable/timetable.js';
import { minutesOf, slotsClash, slotsOf, type Slot } from '../../functions/course/timetable/week.js';
import { meet, section, untimedMeeting } from '../support/section-builder.js';

const TERM = '2026-spring';
const names = (option: CourseOption) => option.placements.map((p) => p.section.section);
const burnaby = { campus: 'Burnaby' };
const surrey = { campus: 'Surrey' };
const course = (ref: string, sections: Section[]): TimetableCourse => ({ ref, code: ref.split(':')[1]!, title: null, sections });

/** Every meeting of every section taken, as slots: what "no overlap" is checked on. */
const slotsOfOptions = (options: CourseOption[]): Slot[] => options.flatMap((o) => o.placements.flatMap((p) => p.section.meetings.flatMap(slotsOf)));
const overlapping = (slots: Slot[]) => slots.some((a, i) => slots.slice(i + 1).some((b) => slotsClash(a, b)));

describe('pairing sections into enrolments', () => {
  it('pairs an SFU lecture only with the labs of its own group (D100 with D10x, D200 with D20x)', () => {
    const ref = 'sfu:CMPT 999';
    const sections = [
      section(ref, TERM, 'D100', [meet('LEC', 'We', '15:30', '16:20', burnaby)]),
      section(ref, TERM, 'D101', [meet('LAB', 'We', '10:30', '11:20', burnaby)]),
      section(ref, TERM, 'D102', [meet('LAB', 'Th', '10:30', '11:20', burnaby)]),
      section(ref, TERM, 'D103', [meet('LAB', 'Fr', '10:30', '11:20', burnaby)]),
      section(ref, TERM, 'D200', [meet('LEC', 'Tu', '13:30', '14:20', surrey)]),
      section(ref, TERM, 'D201', [meet('LAB', 'Mo', '09:30', '10:20', surrey)]),
      section(ref, TERM, 'D202', [meet('LAB', 'Th', '14:30', '15:20', surrey)]),
    ];
    const { options } = courseOptions(ref, sections);
    expect(options.map(names)).toEqual([
      ['D100', 'D101'],
      ['D100', 'D102'],
      ['D100', 'D103'],
      ['D200', 'D201'],
      ['D200', 'D202'],
    ]);
    for (const option of options) {
      const group = option.placements[0]!.section.section.slice(0, 2);
      expect(option.placements.map((p) => p.section.section.slice(0, 2))).toEqual([group, group]);
    }
    expect(options.map((o) => o.placements.map((p) => p.kind))).toEqual(options.map(() => ['LEC', 'LAB']));
  });

  it('asks for one of each component kind of the group: a lab and a tutorial', () => {
    const ref = 'sfu:PHYS 999';
    const sections = [
      section(ref, TERM, 'D100', [meet('LEC', 'MoWeFr', '08:30', '09:20')]),
      section(ref, TERM, 'D101', [meet('TUT', 'Tu', '08:30', '09:20')]),
      section(ref, TERM, 'D102', [meet('TUT', 'Tu', '09:30', '10:20')]),
      section(ref, TERM, 'D103', [meet('LAB', 'Th', '13:30', '16:20')]),
    ];
    const { options } = courseOptions(ref, sections);
    expect(options.map(names)).toEqual([
      ['D100', 'D103', 'D101'],
      ['D100', 'D103', 'D102'],
    ]);
  });

  it('merges sections at exactly the same times into one choice, but never pairs across groups', () => {
    const ref = 'sfu:MATH 999';
    const sections = [
      section(ref, TERM, 'D100', [meet('LEC', 'MoWeFr', '11:30', '12:20', burnaby)]),
      section(ref, TERM, 'D200', [meet('LEC', 'MoWeFr', '11:30', '12:20', burnaby)]),
      section(ref, TERM, 'D400', [meet('LEC', 'MoWeFr', '14:30', '15:20', surrey)]),
    ];
    expect(courseOptions(ref, sections).options.map((o) => [names(o), o.placements[0]!.sameTime.map((s) => s.section)])).toEqual([
      [['D100'], ['D200']],
      [['D400'], []],
    ]);

    const labs = 'sfu:CMPT 998';
    const grouped = [
      section(labs, TERM, 'D100', [meet('LEC', 'We', '15:30', '16:20')]),
      section(labs, TERM, 'D101', [meet('LAB', 'We', '10:30', '11:20')]),
      section(labs, TERM, 'D102', [meet('LAB', 'We', '10:30', '11:20')]),
      // Same times as D100 and its labs, but its own group: D100 with D201 is no enrolment.
      section(labs, TERM, 'D200', [meet('LEC', 'We', '15:30', '16:20')]),
      section(labs, TERM, 'D201', [meet('LAB', 'We', '10:30', '11:20')]),
    ];
    const merged = courseOptions(labs, grouped).options;
    expect(merged.map(names)).toEqual([
      ['D100', 'D101'],
      ['D200', 'D201'],
    ]);
    expect(merged[0]!.placements[1]!.sameTime.map((s) => s.section)).toEqual(['D102']);
    expect(merged[1]!.placements.every((p) => p.sameTime.length === 0)).toBe(true);
  });

  it('lets a group without an x00 section stand alone, section by section', () => {
    const ref = 'sfu:EDUC 999';
    const sections = [section(ref, TERM, 'G001', [meet('SEM', 'Mo', '16:30', '19:20')]), section(ref, TERM, 'G002', [meet('SEM', 'Tu', '16:30', '19:20')])];
    expect(courseOptions(ref, sections).options.map(names)).toEqual([['G001'], ['G002']]);
  });

  it('offers course-wide labs (LA01, LC01) to each lecture from its own campus, and none to a group with its own labs', () => {
    const ref = 'sfu:CHEM 999';
    const sections = [
      section(ref, TERM, 'D100', [meet('LEC', 'MoWeFr', '10:30', '11:20', burnaby)]),
      section(ref, TERM, 'D101', [meet('TUT', 'Mo', '11:30', '12:20', burnaby)]),
      section(ref, TERM, 'D300', [meet('LEC', 'MoWeFr', '10:30', '11:20', surrey)]),
      section(ref, TERM, 'D301', [meet('TUT', 'Mo', '13:30', '14:20', surrey)]),
      section(ref, TERM, 'D500', [meet('LEC', 'TuTh', '10:30', '11:50', burnaby)]),
      section(ref, TERM, 'D501', [meet('LAB', 'Fr', '13:30', '16:20', burnaby)]),
      section(ref, TERM, 'LA01', [meet('LAB', 'Tu', '13:30', '17:20', burnaby)]),
      section(ref, TERM, 'LA02', [meet('LAB', 'We', '13:30', '17:20', burnaby)]),
      section(ref, TERM, 'LC01', [meet('LAB', 'Tu', '08:30', '12:20', surrey)]),
      // Open-lab hours are never a required class; a section with no time is named, not placed.
      section(ref, TERM, 'OP01', [meet('OPL', 'MoTuWeThFr', '08:30', '16:20', burnaby)]),
      section(ref, TERM, 'LE01', []),
    ];
    const result = courseOptions(ref, sections);
    expect(result.options.map(names)).toEqual([
      ['D100', 'LA01', 'D101'],
      ['D100', 'LA02', 'D101'],
      ['D300', 'LC01', 'D301'],
      ['D500', 'D501'],
    ]);
    expect(result.untimed).toEqual(['LE01']);
  });

  it("takes Langara's sections as self-contained: lecture and lab in one section, a lab-only section on its own", () => {
    const ref = 'langara:CPSC 9999';
    const sections = [
      section(ref, '2023-spring', '001', [meet('LEC', 'MoWe', '08:30', '10:20', { room: 'A130' }), meet('LAB', 'Fr', '08:30', '10:20'), meet('EXAM', 'Th', '08:30', '10:30', { startDate: '2023-04-13', endDate: '2023-04-13' })]),
      section(ref, '2023-spring', 'M01', [meet('LEC', 'TuTh', '12:30', '14:20'), untimedMeeting('LEC', { room: 'WWW' })]),
      section(ref, '2023-spring', '002', [meet('LAB', 'Sa', '09:30', '12:20')]),
      section(ref, '2023-spring', 'W01', [untimedMeeting('WWW')]),
      section(ref, '2023-spring', '003', [meet('LEC', 'Mo', '18:30', '21:20')], { seats: { available: null, status: 'cancelled' } }),
    ];
    const result = courseOptions(ref, sections);
    expect(result.options.map(names)).toEqual([['001'], ['002'], ['M01']]);
    expect(result.options[0]!.placements[0]!.kind).toBe('LAB+LEC');
    // The exam is not part of the week.
    expect(result.options[0]!.slots.map((s) => s.day)).toEqual(['Mo', 'We', 'Fr']);
    expect(result.untimed).toEqual(['W01']);
  });

  it('treats a course whose sections all lack times as fitting anywhere, and drops an enrolment that clashes with itself', () => {
    const online = courseOptions('sfu:ARCH 999', [section('sfu:ARCH 999', TERM, 'OL01', [untimedMeeting('OLC')])]);
    expect(online).toMatchObject({ noFixedTimes: true, available: 1 });
    expect(online.options[0]!.slots).toEqual([]);

    const ref = 'sfu:BISC 999';
    const clashing = courseOptions(ref, [
      section(ref, TERM, 'D100', [meet('LEC', 'Tu', '12:30', '13:20')]),
      section(ref, TERM, 'D101', [meet('LAB', 'Tu', '12:30', '15:20')]),
      section(ref, TERM, 'D102', [meet('LAB', 'Tu', '13:30', '16:20')]),
    ]);
    expect(clashing.options.map(names)).toEqual([['D100', 'D102']]);
    expect(clashing.available).toBe(1);
  });
});

describe('conflicts', () => {
  const single = (ref: string, ...meetings: ReturnType<typeof meet>[]) => [section(ref, TERM, 'D100', meetings)];

  it('names both courses when every section of one overlaps every section of the other', () => {
    const a = course('sfu:AAA 100', [...single('sfu:AAA 100', meet('LEC', 'MoWeFr', '11:30', '12:20')), section('sfu:AAA 100', TERM, 'D200', [meet('LEC', 'MoWe', '11:30', '12:30')])]);
    const b = course('sfu:BBB 100', single('sfu:BBB 100', meet('LEC', 'We', '12:00', '13:20')));
    const c = course('sfu:CCC 100', single('sfu:CCC 100', meet('LEC', 'Tu', '12:00', '13:20')));
    const timetable = buildTimetable([a, b, c], TERM);
    expect(timetable.combinations).toEqual([]);
    expect(timetable.conflicts).toHaveLength(1);
    expect(timetable.conflicts[0]!.courses).toEqual(['sfu:AAA 100', 'sfu:BBB 100']);
    expect(timetable.conflicts[0]!.message).toMatch(/^AAA 100 and BBB 100 always clash: e\.g\. AAA 100 D\d00 We \d\d:\d\d-\d\d:\d\d overlaps BBB 100 D100 We 12:00-13:20\.$/);
    for (const { a: x, b: y } of timetable.conflicts[0]!.clashes) {
      expect(x.day).toBe(y.day);
      expect(x.start < y.end && y.start < x.end).toBe(true);
    }
  });

  it('counts touching times and meetings in different weeks as no clash', () => {
    const first = course('sfu:AAA 100', single('sfu:AAA 100', meet('LEC', 'Mo', '10:30', '11:20'), meet('LEC', 'Tu', '14:30', '16:20', { startDate: '2026-01-05', endDate: '2026-02-13' })));
    const second = course('sfu:BBB 100', single('sfu:BBB 100', meet('LEC', 'Mo', '11:20', '12:20'), meet('LEC', 'Tu', '14:30', '16:20', { startDate: '2026-02-23', endDate: '2026-04-10' })));
    expect(buildTimetable([first, second], TERM).combinations).toHaveLength(1);
  });

  it('names all three when no two always clash but the three cannot fit together', () => {
    // Each course has a morning and an afternoon lecture on Monday: any two fit, never all three.
    const two = (ref: string) => course(ref, [section(ref, TERM, 'D100', [meet('LEC', 'Mo', '09:30', '10:20')]), section(ref, TERM, 'D200', [meet('LEC', 'Mo', '13:30', '14:20')])]);
    const timetable = buildTimetable([two('sfu:AAA 100'), two('sfu:BBB 100'), two('sfu:CCC 100')], TERM);
    expect(timetable.combinations).toEqual([]);
    expect(timetable.conflicts.map((c) => c.courses)).toEqual([['sfu:AAA 100', 'sfu:BBB 100', 'sfu:CCC 100']]);
    expect(timetable.conflicts[0]!.message).toMatch(/^AAA 100, BBB 100 and CCC 100 cannot all fit in one week/);
  });

  it('never returns an overlapping combination, and finds every fitting one (against brute force on random weeks)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    for (let round = 0; round < 40; round++) {
      const courses = Array.from({ length: 2 + Math.floor(random() * 3) }, (_, c) => {
        const ref = `sfu:RND ${100 + c}`;
        const sections: Section[] = [];
        for (let g = 1; g <= 1 + Math.floor(random() * 3); g++) {
          const start = 8 * 60 + 30 + 60 * Math.floor(random() * 9);
          sections.push(section(ref, TERM, `D${g}00`, [meet('LEC', pick(['MoWeFr', 'TuTh', 'We', 'MoWe']), clock(start), clock(start + 50))]));
          for (let l = 1; l <= Math.floor(random() * 3); l++) {
            const labStart = 8 * 60 + 30 + 60 * Math.floor(random() * 9);
            sections.push(section(ref, TERM, `D${g}0${l}`, [meet('LAB', pick(['Mo', 'Tu', 'We', 'Th', 'Fr']), clock(labStart), clock(labStart + 110))]));
          }
        }
        return courseOptions(ref, sections);
      });
      const { combinations, complete } = solve(courses);
      expect(complete).toBe(true);
      for (const combination of combinations) expect(overlapping(slotsOfOptions(combination.options))).toBe(false);
      const product = courses.reduce<CourseOption[][]>((acc, c) => acc.flatMap((prefix) => c.options.map((o) => [...prefix, o])), [[]]);
      const fitting = product.filter((options) => !overlapping(options.flatMap((o) => o.slots)));
      expect(combinations.length).toBe(fitting.length);
      expect(new Set(combinations.map((c) => c.options.map(names).join('|'))).size).toBe(combinations.length);
    }
  });
});

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

describe('preferences, ranking and kept sections', () => {
  const ref = 'sfu:CMPT 999';
  const cmpt = course(ref, [
    section(ref, TERM, 'D100', [meet('LEC', 'MoWe', '08:30', '09:20', burnaby)]),
    section(ref, TERM, 'D101', [meet('LAB', 'Fr', '10:30', '11:20', burnaby)]),
    section(ref, TERM, 'D102', [meet('LAB', 'Mo', '09:30', '10:20', burnaby)]),
    section(ref, TERM, 'D200', [meet('LEC', 'TuTh', '14:30', '15:20', burnaby)]),
    section(ref, TERM, 'D201', [meet('LAB', 'Th', '15:30', '16:20', burnaby)]),
    section(ref, TERM, 'D202', [meet('LAB', 'Fr', '17:30', '18:20', burnaby)]),
    section(ref, TERM, 'D400', [meet('LEC', 'MoWe', '10:30', '11:20', surrey)]),
  ]);
  const math = course('sfu:MATH 999', [
    section('sfu:MATH 999', TERM, 'D100', [meet('LEC', 'MoWe', '12:30', '13:20', burnaby)]),
    section('sfu:MATH 999', TERM, 'D200', [meet('LEC', 'TuTh', '10:30', '11:20', burnaby)]),
  ]);
  const everyMeeting = (timetable: ReturnType<typeof buildTimetable>) => timetable.combinations.flatMap((c) => c.options.flatMap((o) => o.slots));

  it('keeps every class within "no classes before", "none after" and days off', () => {
    const timetable = buildTimetable([cmpt, math], TERM, { notBefore: '10:00', notAfter: '17:00', daysOff: ['Fr'] });
    expect(timetable.combinations.length).toBeGreaterThan(0);
    for (const slot of everyMeeting(timetable)) {
      expect(slot.start).toBeGreaterThanOrEqual(minutesOf('10:00')!);
      expect(slot.end).toBeLessThanOrEqual(minutesOf('17:00')!);
      expect(slot.day).not.toBe('Fr');
    }
    const unrestricted = buildTimetable([cmpt, math], TERM);
    expect(everyMeeting(unrestricted).some((s) => s.start < minutesOf('10:00')! || s.day === 'Fr')).toBe(true);
  });

  it('names a course no section of which fits the preferences, and still places the others', () => {
    const timetable = buildTimetable([cmpt, math], TERM, { notBefore: '14:00' });
    const status = timetable.courses.find((c) => c.course === 'sfu:MATH 999')!;
    expect(status.status).toBe('no-fit');
    expect(status.message).toBe('No way to take MATH 999 fits no classes before 14:00.');
    expect(buildTimetable([cmpt, math], TERM, { notBefore: '12:00', daysOff: ['Tu', 'Mo'] }).courses[1]!.message).toBe('No way to take MATH 999 fits no classes before 12:00 and Mondays and Tuesdays off.');
    expect(timetable.combinations.length).toBeGreaterThan(0);
    expect(timetable.combinations.every((c) => c.options.map((o) => o.course).join() === ref)).toBe(true);
  });

  it('ranks the week: no campus change first; compact, fewest days and late start each order by their own measure', () => {
    const compact = buildTimetable([cmpt, math], TERM, { ranking: 'compact' }).combinations;
    expect(compact[0]!.shape.campusChanges).toBe(0);
    const measure = (ranking: 'compact' | 'fewest-days' | 'late-start', key: (c: (typeof compact)[number]) => number) => {
      const ranked = buildTimetable([cmpt, math], TERM, { ranking }).combinations.filter((c) => c.shape.campusChanges === 0 && c.shape.campuses === 1);
      expect(ranked.length).toBeGreaterThan(1);
      expect(ranked.map(key)).toEqual([...ranked.map(key)].sort((x, y) => x - y));
    };
    measure('compact', (c) => c.shape.gapMinutes);
    measure('fewest-days', (c) => c.shape.days);
    measure('late-start', (c) => -c.shape.meanFirstStart!);
    // Surrey's D400 on the same Monday as a Burnaby lecture ranks below every one-campus week.
    const mixed = compact.findIndex((c) => c.shape.campusChanges > 0);
    expect(mixed === -1 || compact.slice(mixed).every((c) => c.shape.campusChanges > 0)).toBe(true);
  });

  it('measures a week: gaps beyond a 10-minute walk, same-day campus changes and those with under an hour to travel', () => {
    const at = (day: 'Mo' | 'Tu', start: string, end: string, campus: string): Slot => ({ day, start: minutesOf(start)!, end: minutesOf(end)!, campus });
    const shape = weekShape([at('Mo', '08:30', '09:20', 'Burnaby'), at('Mo', '09:30', '10:20', 'Surrey'), at('Mo', '13:30', '14:20', 'Burnaby'), at('Tu', '10:30', '11:20', 'Burnaby')]);
    expect(shape).toMatchObject({ days: 2, gapMinutes: 180, campusChanges: 2, rushedCampusChanges: 1, campuses: 2, earliestStart: minutesOf('08:30'), latestEnd: minutesOf('14:20') });
    // Ranked last: a week whose move between campuses cannot be made in time.
    const kept = buildTimetable([cmpt, math], TERM).combinations;
    const rushed = kept.findIndex((c) => c.shape.rushedCampusChanges > 0);
    expect(rushed === -1 || kept.slice(rushed).every((c) => c.shape.rushedCampusChanges > 0)).toBe(true);
  });

  it('keeps the sections asked for, and refuses one the course does not have in the term', () => {
    const kept = buildTimetable([cmpt, math], TERM, {}, [{ index: 0, course: ref, section: 'D202' }]);
    expect(kept.combinations.length).toBeGreaterThan(0);
    for (const c of kept.combinations) expect(names(c.options.find((o) => o.course === ref)!)).toEqual(['D200', 'D202']);

    const refused = (() => {
      try {
        buildTimetable([cmpt, math], TERM, {}, [{ index: 1, course: ref, section: 'D999' }]);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).kind).toBe('invalid');
    expect((refused as DomainError).details?.fields?.[0]).toMatchObject({ field: 'sections.1', message: expect.stringContaining('D100, D101, D102, D200') });
  });

  it('names a course with no sections in the term, and refuses a term none of the courses has', () => {
    const fallOnly = course('sfu:STAT 999', [section('sfu:STAT 999', '2025-fall', 'D100', [meet('LEC', 'Mo', '08:30', '09:20')])]);
    const timetable = buildTimetable([cmpt, fallOnly], TERM);
    expect(timetable.courses.find((c) => c.course === 'sfu:STAT 999')).toMatchObject({ status: 'no-sections', termsWithSections: ['2025-fall'] });
    expect(timetable.courses.find((c) => c.course === 'sfu:STAT 999')!.message).toBe('STAT 999 has no sections with meeting times in Spring 2026 (it has sections in Fall 2025).');
    expect(timetable.combinations.length).toBeGreaterThan(0);

    expect(() => buildTimetable([cmpt, fallOnly], '1999-fall')).toThrow(/No sections of CMPT 999 and STAT 999 are known in Fall 1999/);
    // Without a term: the newest term any course has sections in.
    expect(buildTimetable([cmpt, fallOnly], undefined).term).toBe(TERM);
  });
});

describe('on the shipped SFU Spring 2026 sections', () => {
  const parsed = findAdapter('sfu-sections')!.parse(readFileSync(new URL('../../data/sample/sfu-catalog-2026/sections-2026-spring-all.json', import.meta.url), 'utf8'), {
    ingestedAt: '2026-01-01T00:00:00.000Z',
    origin: 'sections-2026-spring-all.json',
  });
  const sections = parsed.records.filter((r): r is Section => r.kind === 'section');
  const byCourse = new Map<string, Section[]>();
  for (const s of sections) (byCourse.get(s.code) ?? byCourse.set(s.code, []).get(s.code)!).push(s);

  it('pairs every grouped component with the head of its own group, in every course', () => {
    let checked = 0;
    for (const [code, list] of byCourse) {
      for (const option of courseOptions(`sfu:${code}`, list).options) {
        const [head, ...components] = option.placements.map((p) => p.section.section);
        const group = /^([A-Z]+\d)00$/.exec(head!)?.[1];
        for (const component of components) {
          const own = /^([A-Z]+\d)\d\d$/.exec(component)?.[1];
          // A grouped component belongs to its head's group; course-wide ones (LA01…) have no group.
          if (own) expect(own, `${code} ${head} + ${component}`).toBe(group);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
