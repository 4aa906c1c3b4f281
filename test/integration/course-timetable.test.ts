import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
});

const call = (tool: string, input: unknown) => server.rest(`tn_course_${tool}`, input, null);
const TERM = '2026-spring';
const COURSES = ['sfu:CMPT 225', 'sfu:MACM 201', 'sfu:MATH 232'];

interface StoredMeeting {
  type: string;
  days: string[];
  startTime?: string;
  endTime?: string;
  startDate?: string;
  endDate?: string;
}
interface StoredSection {
  section: string;
  meetings: StoredMeeting[];
}
interface Meeting {
  course: string;
  section: string;
  kind: string;
  day: string;
  start: string;
  end: string;
}
interface Combination {
  rank: number;
  sections: { course: string; section: string; kind: string; role: 'enrolment' | 'component'; sameTime: string[] }[];
  meetings: Meeting[];
  ics?: string;
}

/** Every section of a course in the term, as tn_course_section_list gives it (the stored data). */
async function sectionsOf(course: string, term = TERM): Promise<StoredSection[]> {
  const { status, body } = await call('section_list', { course, term, limit: 100 });
  expect(status).toBe(200);
  return body.items;
}

const timed = (m: StoredMeeting) => m.days.length > 0 && Boolean(m.startTime && m.endTime) && m.type !== 'EXAM';
const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const overlap = (a: Meeting, b: Meeting) => a.day === b.day && minutes(a.start) < minutes(b.end) && minutes(b.start) < minutes(a.end);

describe('tn_course_timetable on the shipped SFU Spring 2026 sections', () => {
  let stored: Map<string, StoredSection[]>;
  let items: Combination[];

  beforeAll(async () => {
    stored = new Map(await Promise.all(COURSES.map(async (course) => [course, await sectionsOf(course)] as const)));
    const { status, body } = await call('timetable', { term: TERM, courses: COURSES, limit: 100 });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.term).toBe(TERM);
    expect(body.conflicts).toEqual([]);
    expect(body.courses.map((c: { status: string }) => c.status)).toEqual(['placed', 'placed', 'placed']);
    items = body.items;
    expect(items.length).toBeGreaterThan(0);
    expect(body.totalCount).toBe(items.length);
  });

  it('takes one lecture per course, with a lab or tutorial of that lecture’s own group whenever the group has one', () => {
    for (const combination of items) {
      for (const course of COURSES) {
        const taken = combination.sections.filter((s) => s.course === course);
        const enrolment = taken.filter((s) => s.role === 'enrolment');
        expect(enrolment, course).toHaveLength(1);
        expect(enrolment[0]!.kind).toContain('LEC');
        // The lecture's group, from the stored names: D100 heads D101…D199.
        const group = /^([A-Z]+\d)00$/.exec(enrolment[0]!.section)?.[1];
        const groupComponents = stored.get(course)!.filter((s) => group && s.section !== enrolment[0]!.section && s.section.startsWith(group) && s.meetings.some(timed));
        const components = taken.filter((s) => s.role === 'component');
        if (groupComponents.length) {
          expect(components.length, `${course} ${enrolment[0]!.section}`).toBeGreaterThan(0);
          expect(components.some((c) => /LAB|TUT/.test(c.kind))).toBe(true);
        }
        for (const component of components) {
          expect(groupComponents.map((s) => s.section), `${course} ${enrolment[0]!.section} + ${component.section}`).toContain(component.section);
          for (const alternative of component.sameTime) expect(groupComponents.map((s) => s.section)).toContain(alternative);
        }
      }
    }
    // The data has labs in both CMPT 225 groups: both appear, each with its own.
    const cmptLectures = new Set(items.map((c) => c.sections.find((s) => s.course === 'sfu:CMPT 225' && s.role === 'enrolment')!.section));
    expect(cmptLectures.size).toBeGreaterThan(1);
  });

  it('never overlaps two meetings, and gives every meeting exactly as the section stores it', () => {
    for (const combination of items) {
      const meetings = combination.meetings;
      meetings.forEach((a, i) => meetings.slice(i + 1).forEach((b) => expect(overlap(a, b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(false)));
      // Every timed meeting of every section taken, once per day, and nothing else.
      const expected = combination.sections.flatMap((s) =>
        stored
          .get(s.course)!
          .find((x) => x.section === s.section)!
          .meetings.filter(timed)
          .flatMap((m) => m.days.map((day) => `${s.course} ${s.section} ${m.type} ${day} ${m.startTime}-${m.endTime}`)),
      );
      expect(meetings.map((m) => `${m.course} ${m.section} ${m.kind} ${m.day} ${m.start}-${m.end}`).sort()).toEqual(expected.sort());
    }
  });

  it('ranks single-campus weeks first and pages with cursors bound to the request', async () => {
    const first = await call('timetable', { term: TERM, courses: COURSES, limit: 2 });
    expect(first.body.items.map((c: Combination) => c.rank)).toEqual([1, 2]);
    expect(first.body.items[0].week.campusChanges).toBe(0);
    const second = await call('timetable', { term: TERM, courses: COURSES, limit: 2, cursor: first.body.nextCursor });
    expect(second.body.items.map((c: Combination) => c.rank)).toEqual([3, 4]);
    expect(second.body.items[0].meetings).toEqual(items[2]!.meetings);
    const foreign = await call('timetable', { term: TERM, courses: COURSES, notBefore: '10:00', limit: 2, cursor: first.body.nextCursor });
    expect(foreign.status).toBe(400);
  });

  it('keeps a chosen section and exports that combination as .ics with one weekly event per meeting', async () => {
    const chosen = items[items.length - 1]!;
    const keep = chosen.sections.map((s) => `${s.course} ${s.section}`);
    const { status, body } = await call('timetable', { term: TERM, courses: COURSES, sections: keep, ics: true, limit: 5 });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.items).toHaveLength(1);
    expect(body.items[0].meetings).toEqual(chosen.meetings);
    const ics: string = body.items[0].ics;
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(ics));
    const events = calendar.getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    const storedMeetings = chosen.sections.flatMap((s) => stored.get(s.course)!.find((x) => x.section === s.section)!.meetings.filter(timed).map((m) => ({ s, m })));
    expect(events).toHaveLength(storedMeetings.length);
    for (const { s, m } of storedMeetings) {
      const code = s.course.split(':')[1]!;
      const event = events.find((e) => e.summary.startsWith(`${code} ${s.section} `) && e.startDate.toString().endsWith(`T${m.startTime}:00`))!;
      expect(event, `${code} ${s.section} ${m.startTime}`).toBeDefined();
      expect(event.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/Vancouver');
      const rule = event.component.getFirstPropertyValue('rrule') as ICAL.Recur;
      expect(rule.freq).toBe('WEEKLY');
      expect(rule.parts.BYDAY).toEqual(m.days.map((d) => d.toUpperCase()));
      expect(rule.until!.toJSDate().getTime()).toBeGreaterThan(new Date(`${m.endDate}T07:00:00Z`).getTime());
      expect(rule.until!.toJSDate().getTime()).toBeLessThan(new Date(`${m.endDate}T23:59:59Z`).getTime() + 86_400_000);
    }

    const unknown = await call('timetable', { term: TERM, courses: COURSES, sections: ['CMPT 225 D999'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.fields[0].field).toBe('sections.0');
  });

  it('serves the same combinations as structuredContent to an MCP client', async () => {
    const client = await connectClient(server.url, { token: null, path: '/mcp/course' });
    try {
      const result = await client.callTool({ name: 'tn_course_timetable', arguments: { term: TERM, courses: COURSES, limit: 1 } });
      expect(result.isError).toBeFalsy();
      const content = result.structuredContent as { items: Combination[] };
      expect(content.items[0]!.meetings).toEqual(items[0]!.meetings);
      expect(Object.keys(content.items[0]!.meetings[0]!)).toEqual(expect.arrayContaining(['day', 'start', 'end', 'course', 'section', 'kind']));
    } finally {
      await client.close();
    }
  });
});

describe('tn_course_timetable when a timetable cannot be made', () => {
  it('names the two courses when every section of one overlaps every section of the other', async () => {
    // A pair of Spring 2026 courses from the data, each taught in one timed section that overlap.
    const search = await call('search', { query: 'mathematics statistics computing', institution: 'sfu', term: TERM, limit: 100 });
    const singles: { ref: string; meetings: Meeting[] }[] = [];
    for (const { ref } of search.body.items as { ref: string }[]) {
      const sections = (await sectionsOf(ref)).filter((s) => s.meetings.some(timed) && !s.meetings.some((m) => timed(m) && m.type === 'OPL'));
      if (sections.length !== 1) continue;
      const meetings = sections[0]!.meetings.filter(timed).flatMap((m) => m.days.map((day) => ({ course: ref, section: sections[0]!.section, kind: m.type, day, start: m.startTime!, end: m.endTime! })));
      singles.push({ ref, meetings });
    }
    const pair = singles.flatMap((a, i) => singles.slice(i + 1).map((b) => [a, b] as const)).find(([a, b]) => a.meetings.some((x) => b.meetings.some((y) => overlap(x, y))));
    expect(pair, `no overlapping single-section pair among ${singles.length}`).toBeDefined();
    const [a, b] = pair!;
    const { status, body } = await call('timetable', { term: TERM, courses: [a.ref, b.ref] });
    expect(status).toBe(200);
    expect(body.items).toEqual([]);
    expect(body.conflicts).toHaveLength(1);
    expect(body.conflicts[0].courses).toEqual([a.ref, b.ref]);
    const [codeA, codeB] = [a.ref.split(':')[1]!, b.ref.split(':')[1]!];
    expect(body.conflicts[0].message).toContain(`${codeA} and ${codeB} always clash`);
    expect(body.conflicts[0].message.length).toBeLessThanOrEqual(160);
  });

  it('names a course with no sections that term and still places the others', async () => {
    const search = await call('search', { query: 'physics', institution: 'sfu', limit: 20 });
    let without: string | undefined;
    for (const { ref } of search.body.items as { ref: string }[]) {
      if ((await sectionsOf(ref)).length === 0) {
        without = ref;
        break;
      }
    }
    expect(without).toBeDefined();
    const { status, body } = await call('timetable', { term: TERM, courses: ['sfu:CMPT 225', without] });
    expect(status).toBe(200);
    const missing = body.courses.find((c: { course: string }) => c.course === without);
    expect(missing.status).toBe('no-sections');
    expect(missing.message).toContain(`${without!.split(':')[1]} has no sections`);
    expect(missing.message).toContain('Spring 2026');
    expect(body.items.length).toBeGreaterThan(0);
  });

  it('answers bad input with an ErrorResponse naming what is wrong', async () => {
    const unknownCourse = await call('timetable', { term: TERM, courses: ['sfu:CMPT 225', 'sfu:CMPT 999'] });
    expect(unknownCourse.status).toBe(404);
    expect(unknownCourse.body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('CMPT 999') });

    const unknownTerm = await call('timetable', { term: '1999-fall', courses: COURSES });
    expect(unknownTerm.status).toBe(404);
    expect(unknownTerm.body.message).toMatch(/Fall 1999/);
    expect(unknownTerm.body.details.hints.join(' ')).toContain(TERM);

    const malformed = await call('timetable', { term: 'someday', courses: COURSES, notBefore: '25:00' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['notBefore', 'term']);

    const noInstitution = await call('timetable', { term: TERM, courses: ['CMPT 225'] });
    expect(noInstitution.status).toBe(400);
    expect(noInstitution.body.details.fields[0].field).toBe('courses.0');
    expect(JSON.stringify(noInstitution.body)).not.toMatch(/at .*\.ts:\d+/);

    // Without a term: the newest term the courses have sections in; with an institution, bare codes.
    const newest = await call('timetable', { institution: 'sfu', courses: ['CMPT 225'] });
    expect(newest.status).toBe(200);
    expect(newest.body.term).toBe(newest.body.availableTerms[0]);
  });
});
