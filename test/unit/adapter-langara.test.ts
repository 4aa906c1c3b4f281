import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogRecordSchema, type CourseFragment, type Section } from '../../functions/catalog/catalog-model.js';
import { findAdapter } from '../../functions/ingest/adapters/index.js';
import { parseLangaraDays, parseLangaraTime, retrievedAtFrom } from '../../functions/ingest/adapters/langara-schedule.js';

const sample = (path: string): string => readFileSync(new URL(`../../data/sample/${path}`, import.meta.url), 'utf8');
const parse = (source: string, path: string) =>
  findAdapter(source)!.parse(sample(path), { ingestedAt: '2026-01-01T00:00:00.000Z', origin: path });
const allValid = (records: unknown[]) => records.every((record) => CatalogRecordSchema.safeParse(record).success);

describe('langara-catalogue', () => {
  const output = parse('langara-catalogue', 'langara/catalogue.json');
  const courses = output.records as CourseFragment[];

  it('emits 1,242 course fragments with title, description, credits and hours', () => {
    expect(courses).toHaveLength(1242);
    expect(output.rejected).toEqual([]);
    expect(allValid(courses)).toBe(true);
    expect(courses.find((c) => c.code === 'CPSC 1150')).toMatchObject({
      institution: 'langara',
      title: 'Program Design',
      credits: 3,
      hours: { lecture: 4, seminar: 0, lab: 2 },
      description: expect.stringMatching(/^Program design entails building/),
      provenance: { source: 'langara-catalogue', sourceRecordId: 'CPSC 1150' },
    });
    expect(courses.filter((c) => c.credits === 0)).toHaveLength(54);
    expect(courses.find((c) => c.code === 'ABST 1100')?.prerequisitesText).toBeUndefined();
  });
});

describe('langara-attributes', () => {
  const output = parse('langara-attributes', 'langara/attributes.json');
  const courses = output.records as CourseFragment[];

  it('emits 691 fragments carrying only the names of the true flags', () => {
    expect(courses).toHaveLength(691);
    expect(output.rejected).toEqual([]);
    expect(allValid(courses)).toBe(true);
    expect(courses.find((c) => c.code === 'ABST 1100')?.attributes).toEqual(['AR', 'HUM', 'SOC', 'UT']);
    expect(courses.find((c) => c.code === 'CPSC 1150')).toEqual({
      kind: 'course',
      institution: 'langara',
      code: 'CPSC 1150',
      provenance: { source: 'langara-attributes', sourceRecordId: 'CPSC 1150', ingestedAt: '2026-01-01T00:00:00.000Z' },
      attributes: ['SCI', 'UT'],
    });
    expect(courses.filter((c) => c.attributes?.includes('LSC'))).toHaveLength(65);
    expect(courses.every((c) => c.attributes?.includes('UT'))).toBe(true);
  });
});

describe('langara-prereqs', () => {
  const output = parse('langara-prereqs', 'langara-prereqs/prerequisites-text.csv');
  const courses = output.records as CourseFragment[];

  it('emits 777 fragments with the text after the "Prerequisite(s):" label, quotes intact', () => {
    expect(courses).toHaveLength(777);
    expect(output.rejected).toEqual([]);
    expect(allValid(courses)).toBe(true);
    expect(courses.find((c) => c.code === 'CPSC 1280')).toEqual({
      kind: 'course',
      institution: 'langara',
      code: 'CPSC 1280',
      provenance: { source: 'langara-prereqs', sourceRecordId: 'CPSC 1280', ingestedAt: '2026-01-01T00:00:00.000Z' },
      prerequisitesText:
        'A minimum "C" grade in one of CPSC 1150 or CPSC 1155; or permission of department. Prerequisites are valid for only three years.',
    });
    expect(courses.find((c) => c.code === 'FMGT 4221')?.prerequisitesText).toMatch(/^Completion of 54 credits including a minimum "C" grade in FMGT 1321 and 2421, and/);
    expect(courses.some((c) => c.prerequisitesText?.startsWith('Prerequisite'))).toBe(false);
  });
});

describe('langara-schedule', () => {
  const spring = parse('langara-schedule', 'langara/semester-202310.json');
  const fall = parse('langara-schedule', 'langara/semester-202330.json');
  const sections = (output: typeof spring) => output.records as Section[];
  const byCrn = (output: typeof spring, crn: string) => sections(output).find((s) => s.classNumber === crn);

  it('emits 441 sections for 202310 and 452 for 202330, all valid, none rejected', () => {
    expect(spring.records).toHaveLength(441);
    expect(fall.records).toHaveLength(452);
    expect([...spring.rejected, ...fall.rejected]).toEqual([]);
    expect(new Set(sections(spring).map((s) => s.term))).toEqual(new Set(['2023-spring']));
    expect(new Set(sections(fall).map((s) => s.term))).toEqual(new Set(['2023-fall']));
    expect(allValid([...spring.records, ...fall.records])).toBe(true);
  });

  it('maps CRN 11241 (ABST 1104 M01): meetings, WWW component, exam dates, seats and retrieval time', () => {
    expect(byCrn(spring, '11241')).toEqual({
      kind: 'section',
      institution: 'langara',
      code: 'ABST 1104',
      provenance: {
        source: 'langara-schedule',
        sourceRecordId: '202310 11241',
        retrievedAt: '2023-06-13T21:39:51',
        ingestedAt: '2026-01-01T00:00:00.000Z',
      },
      term: '2023-spring',
      section: 'M01',
      title: 'Canadian Aboriginal Policy',
      classNumber: '11241',
      credits: 3,
      instructors: ['Adolfina Miranda-Barrios'],
      meetings: [
        // Undated weekly meetings run over the semester's class days (the file's header: 2023-01-04 to 2023-04-11).
        { type: 'LEC', days: ['Mo'], startTime: '14:30', endTime: '17:20', startDate: '2023-01-04', endDate: '2023-04-11', room: 'A167', instructor: 'Adolfina Miranda-Barrios' },
        { type: 'LEC', days: [], room: 'WWW', instructor: 'Adolfina Miranda-Barrios' },
        { type: 'EXAM', days: ['Fr'], startTime: '08:30', endTime: '10:25', startDate: '2023-04-21', endDate: '2023-04-21', room: 'A167', instructor: 'Adolfina Miranda-Barrios' },
      ],
      seats: { available: 5, status: 'open', waitlist: 2 },
      notes: 'ABST 1104 section M01 will also meet for 1 hour per week as a WWW component.',
    });
    expect(byCrn(spring, '10725')?.meetings[0]).toMatchObject({ type: 'LEC', days: ['Mo', 'We'], startTime: '14:30', endTime: '16:20' });
  });

  it('maps seat states: 0 is full, "Cancel" cancelled, "N/A"/"Full" waitlists null', () => {
    expect(byCrn(spring, '11246')?.seats).toEqual({ available: 0, status: 'full', waitlist: 9 });
    expect(byCrn(spring, '11247')?.seats).toEqual({ available: null, status: 'cancelled', waitlist: null });
    expect(sections(spring).filter((s) => s.seats?.status === 'cancelled')).toHaveLength(17);
    expect(sections(spring).filter((s) => s.seats?.status === 'full')).toHaveLength(80);
    expect(byCrn(fall, '30497')?.seats).toEqual({ available: 1, status: 'open', waitlist: null });
  });

  it('splits multi-instructor cells and leaves ". TBA" out of instructors', () => {
    expect(byCrn(spring, '10308')?.instructors).toEqual(['Katelyn Janzen', 'Joanna Woltosz']);
    expect(byCrn(spring, '10308')?.meetings[2]?.instructor).toBe('Joanna Woltosz, Katelyn Janzen');
    const all = [...sections(spring), ...sections(fall)];
    expect(all.some((s) => s.instructors.some((name) => /TBA/.test(name) || name.trim() === ''))).toBe(false);
    expect(all.some((s) => s.meetings.some((m) => m.instructor !== undefined && /TBA/.test(m.instructor)))).toBe(false);
    expect(sections(fall).filter((s) => s.instructors.length === 0)).toHaveLength(75);
  });

  it('parses positional days, times and the zone-less retrieval time strictly', () => {
    expect(parseLangaraDays('MTWRFSU')).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    expect(parseLangaraDays('-------')).toEqual([]);
    expect(() => parseLangaraDays('W-M----')).toThrow(/unrecognised days/);
    expect(() => parseLangaraDays('M-W')).toThrow(/unrecognised days/);
    expect(parseLangaraTime('0830-1025')).toEqual(['08:30', '10:25']);
    expect(parseLangaraTime('-')).toBeUndefined();
    expect(() => parseLangaraTime('8:30-10:25')).toThrow(/unrecognised time/);
    expect(retrievedAtFrom('2023-06-30 15:36:45')).toBe('2023-06-30T15:36:45');
    expect(retrievedAtFrom('yesterday')).toBeUndefined();
  });
});
