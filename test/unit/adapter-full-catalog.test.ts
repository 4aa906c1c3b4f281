import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogRecordSchema, type CourseFragment, type GradeDistribution, type Section } from '../../functions/catalog/catalog-model.js';
import { findAdapter } from '../../functions/ingest/adapters/index.js';
import { splitCalendarDescription, stripCampusSuffixes } from '../../functions/ingest/adapters/ubc-calendar.js';
import { kualiNode, kualiText, kualiTree } from '../../functions/ingest/adapters/uvic.js';
import { parsePrerequisites } from '../../functions/course/prerequisites/parser.js';
import { canonicalKey } from '../../functions/course/prerequisites/agreement.js';

/** Adapter tests on slices of the six real files of issue 16 (data/sample/, each with its SOURCE.md). */
const root = new URL('../../data/sample/', import.meta.url);
const sample = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const context = (origin: string) => ({ ingestedAt: '2026-01-01T00:00:00.000Z', origin });
const parse = (source: string, raw: string, origin = 'slice') => findAdapter(source)!.parse(raw, context(origin));
const jsonSlice = (path: string, from: number, count: number) => JSON.stringify((JSON.parse(sample(path)) as unknown[]).slice(from, from + count));
const csvSlice = (path: string, from: number, count: number) => {
  const [header, ...rows] = sample(path).split('\n');
  return [header, ...rows.slice(from, from + count)].join('\n');
};
const valid = (records: unknown[]) => records.every((record) => CatalogRecordSchema.safeParse(record).success);

describe('SFU full catalog (same formats as the subset: sfu-outlines, sfu-sections)', () => {
  it('maps a slice of outlines-all.json from departments outside the subset', () => {
    const output = parse('sfu-outlines', jsonSlice('sfu-catalog-2026/outlines-all.json', 0, 60));
    const courses = output.records.filter((r): r is CourseFragment => r.kind === 'course');
    expect(courses).toHaveLength(60);
    expect(courses[0]).toMatchObject({ institution: 'sfu', code: 'ACMA 101', title: 'Introduction to Insurance', corequisitesText: 'MATH 150, 151, 154 or 157.' });
    expect(output.records.some((r) => r.kind === 'offering')).toBe(true);
    expect(valid(output.records)).toBe(true);
  });

  it('maps a slice of the new Fall 2026 sections file', () => {
    const output = parse('sfu-sections', jsonSlice('sfu-catalog-2026/sections-2026-fall-all.json', 0, 30));
    const sections = output.records as Section[];
    expect(sections.length).toBeGreaterThan(30);
    expect(new Set(sections.map((s) => s.term))).toEqual(new Set(['2026-fall']));
    expect(valid(sections)).toBe(true);
  });

  it('quarantines SFU placeholder codes ("FAN X91") with their reason', () => {
    const all = JSON.parse(sample('sfu-catalog-2026/outlines-all.json')) as { dept: string; number: string }[];
    const placeholder = all.filter((o) => /X/.test(o.number)).slice(0, 2);
    const output = parse('sfu-outlines', JSON.stringify(placeholder));
    expect(output.rejected.map((r) => r.reason)).toEqual(placeholder.map((o) => `not a course code: "${o.dept} ${o.number}"`));
  });
});

describe('ubc-calendar: UBC Vancouver 2026 (JSON)', () => {
  const output = parse('ubc-calendar', jsonSlice('ubc-catalog-2026/courses.json', 0, 400));
  const courses = output.records as CourseFragment[];

  it('maps every course of a 400-course slice', () => {
    expect(courses).toHaveLength(400);
    expect(output.rejected).toEqual([]);
    expect(valid(courses)).toBe(true);
    expect(new Set(courses.map((c) => c.institution))).toEqual(new Set(['ubc']));
  });

  it('cuts CPSC 221 into description, hours and prerequisite text', () => {
    const all = JSON.parse(sample('ubc-catalog-2026/courses.json')) as { code: string }[];
    const [cpsc221] = parse('ubc-calendar', JSON.stringify(all.filter((c) => c.code === 'CPSC 221'))).records as CourseFragment[];
    expect(cpsc221).toMatchObject({
      code: 'CPSC 221',
      title: 'Basic Algorithms and Data Structures',
      description: expect.stringMatching(/^Design and analysis of basic algorithms.*concurrency\.$/),
      credits: 4,
      hours: { lecture: 3, lab: 2, tutorial: 0 },
      prerequisitesText: 'One of CPSC 210, CPEN 221 and either (a) one of CPSC 121, MATH 220 or (b) a score of 68% or higher in MATH 226.',
      provenance: { source: 'ubc-calendar', sourceUrl: 'https://vancouver.calendar.ubc.ca/course-descriptions/subject/cpscv' },
    });
  });

  it('splits labels and strips campus suffixes from references', () => {
    expect(stripCampusSuffixes('Credit will be granted for only one of APBI_V 315, ANSC_V 515.')).toBe('Credit will be granted for only one of APBI 315, ANSC 515.');
    expect(
      splitCalendarDescription('Waves. [4-0-2]. Prerequisite: APSC_V 172. Corequisite: APSC_V 173. This course is not eligible for Credit/D/Fail grading.'),
    ).toEqual({
      description: 'Waves.',
      hours: { lecture: 4, lab: 0, tutorial: 2 },
      prerequisitesText: 'APSC 172.',
      corequisitesText: 'APSC 173.',
      notes: 'This course is not eligible for Credit/D/Fail grading.',
    });
    expect(splitCalendarDescription('Genomics. Corequisite: BIOL_V 335. Equivalency: BIOL_V 440.')).toMatchObject({
      corequisitesText: 'BIOL 335.',
      notes: 'Equivalency: BIOL 440.',
    });
  });

  it('rejects a malformed course with its reason, keeping the rest', () => {
    const raw = JSON.stringify([{ code: 'CPSC 999', subject: 'CPSC', number: '999' }, { subject: 'CPSC', number: 'x' }, { code: 'CPSC 110', subject: 'CPSC', number: '110', title: 'Computation', credits: '4' }]);
    const out = parse('ubc-calendar', raw);
    expect(out.records.map((r) => r.code)).toEqual(['CPSC 110']);
    expect(out.rejected.map((r) => r.reason)).toEqual(['title is blank', 'not a course code: "CPSC x"']);
  });
});

describe('ubc-calendar: UBC Okanagan 2024 (CSV, format detected)', () => {
  it('maps a slice, strips the Credits tab and the page footer, and names the campus', () => {
    const output = parse('ubc-calendar', sample('ubco-catalog-2024/ubc_okanagan_courses.csv'));
    const courses = output.records as CourseFragment[];
    expect(courses).toHaveLength(2031);
    expect(output.rejected).toEqual([]);
    expect(new Set(courses.map((c) => c.institution))).toEqual(new Set(['ubco']));
    expect(courses.find((c) => c.code === 'COSC 111')).toMatchObject({
      credits: 3,
      hours: { lecture: 3, lab: 2, tutorial: 0 },
      prerequisitesText: 'A score of 70% or higher in one of PREC 12, MATH 12, MATH 125, MATH 126.',
    });
    expect(courses.some((c) => /Subscribe to/.test(c.description ?? '') || /Subscribe to/.test(c.prerequisitesText ?? ''))).toBe(false);
  });

  it('rejects a row whose id is not a Workday code, and a CSV that is neither format', () => {
    const raw = `${csvSlice('ubco-catalog-2024/ubc_okanagan_courses.csv', 0, 2)}\nComputer Science,COSC 999,Bad,,\t3`;
    const out = parse('ubc-calendar', raw);
    expect(out.records).toHaveLength(2);
    expect(out.rejected[0]!.reason).toMatch(/not a Workday course id: "COSC 999"/);
    expect(parse('ubc-calendar', 'a,b\n1,2').rejected[0]!.reason).toMatch(/neither a Vancouver calendar JSON array nor an Okanagan CSV/);
  });
});

describe('uvic-requisites and uvic-kuali', () => {
  const prereqs = JSON.parse(sample('uvic-catalog-2024/courses-prereqs.json')) as Record<string, unknown>;
  const slice = (ids: string[]) => JSON.stringify(Object.fromEntries(ids.map((id) => [id, prereqs[id]])));

  it('maps Kuali rules onto the requirement tree (N-of, minimum grades, "or permission")', () => {
    const out = parse('uvic-requisites', slice(['CSC225', 'CSC226', 'CSC299']));
    const byCode = Object.fromEntries((out.records as CourseFragment[]).map((c) => [c.code, c]));
    expect(byCode['CSC 225']!.prerequisiteTree).toEqual({
      type: 'all',
      children: [
        { type: 'any', children: [{ type: 'course', code: 'CSC 115', institution: 'uvic' }, { type: 'course', code: 'CSC 116', institution: 'uvic' }] },
        { type: 'all', children: [{ type: 'course', code: 'MATH 122', institution: 'uvic' }] },
      ],
    });
    expect(byCode['CSC 225']!.prerequisitesText).toBe('Complete all of the following: (Complete 1 of: (CSC 115, CSC 116), Complete all of: (MATH 122))');
    expect(byCode['CSC 225']!.provenance.sourceUrl).toBe('https://www.uvic.ca/calendar/undergrad/index.php#/courses/Bk_cy_a7V');
    const csc299 = byCode['CSC 299']!.prerequisiteTree!;
    expect(canonicalKey(csc299)).toBe('all(any2(CSC 115, CSC 226, CSC 230, SENG 265), •)');
    expect(JSON.stringify(csc299)).toContain('"minGrade":"B+"');
    expect(valid(out.records)).toBe(true);
  });

  it('reads "or permission" as an alternative, concurrency, units and unknown headings', () => {
    expect(kualiNode({ 'Complete all of: ': ['MATH100', 'or permission of the department.'] })).toEqual({
      type: 'any',
      children: [
        { type: 'all', children: [{ type: 'course', code: 'MATH 100', institution: 'uvic' }] },
        { type: 'condition', text: 'permission of the department.', category: 'permission' },
      ],
    });
    expect(kualiNode({ 'Completed or concurrently enrolled in 1 of: ': ['PHYS110', 'PHYS120'] })).toMatchObject({
      type: 'any',
      children: [{ code: 'PHYS 110', concurrent: true }, { code: 'PHYS 120', concurrent: true }],
    });
    expect(kualiNode({ 'Complete 3 units from: ': ['PHIL201', 'PHIL202'] })).toEqual({
      type: 'condition',
      text: '3 units from: PHIL 201, PHIL 202',
      category: 'credits',
      value: 3,
    });
    expect(kualiTree([{ 'Something Kuali invents: ': ['X'] }])).toEqual({ type: 'unparsed', text: 'Something Kuali invents: X' });
    expect(kualiText('<ul><li>Complete <span>1</span> of: <ul><li><a href="#">CSC115</a> - T <span>(1.5)</span></li><li><a href="#">CSC116</a></li></ul></li></ul>')).toBe(
      'Complete 1 of: (CSC 115, CSC 116)',
    );
  });

  it('keeps hyphenated subjects ("ED-D 101"), and quarantines a key/id mismatch', () => {
    const out = parse('uvic-requisites', JSON.stringify({ 'ED-D101': prereqs['ED-D101'], CSC225: prereqs.CSC226 }));
    expect((out.records as CourseFragment[]).map((c) => c.code)).toEqual(['ED-D 101']);
    expect(out.rejected.map((r) => r.reason)).toEqual(['keyed "CSC225" but courseId is "CSC226"']);
    expect(valid(out.records)).toBe(true);
  });

  it('maps every course of both UVic files, the 50 with hyphenated subjects included', () => {
    const requisites = parse('uvic-requisites', sample('uvic-catalog-2024/courses-prereqs.json'));
    const kuali = parse('uvic-kuali', sample('uvic-catalog-2024/kuali-course-catalog.json'));
    for (const out of [requisites, kuali]) {
      expect(out.rejected).toEqual([]);
      const hyphenated = (out.records as CourseFragment[]).filter((c) => c.code.includes('-'));
      expect(hyphenated.length).toBe(50);
      expect(hyphenated.every((c) => /^ED-[DP] \d{3}[A-Z]?$/.test(c.code))).toBe(true);
    }
  });

  it('maps the Kuali catalog stubs (title, subject, version date)', () => {
    const out = parse('uvic-kuali', jsonSlice('uvic-catalog-2024/kuali-course-catalog.json', 0, 100));
    expect(out.records.length + out.rejected.length).toBe(100);
    const first = out.records[0] as CourseFragment;
    expect(first).toMatchObject({ institution: 'uvic', title: expect.any(String), attributes: [expect.stringMatching(/^Subject: /)], notes: expect.stringMatching(/^Calendar version effective \d{4}-\d{2}-\d{2}\.$/) });
    expect(valid(out.records)).toBe(true);
  });

  it('agrees with the text parser on part of the rules, measured (figures in ADR 0018)', () => {
    const out = parse('uvic-requisites', sample('uvic-catalog-2024/courses-prereqs.json'));
    const both = (out.records as CourseFragment[]).filter((c) => c.prerequisiteTree && c.prerequisitesText);
    const agree = both.filter((c) => canonicalKey(parsePrerequisites(c.prerequisitesText!, { institution: 'uvic', defaultSubject: c.code.split(' ')[0] }).tree) === canonicalKey(c.prerequisiteTree!));
    expect(both.length).toBeGreaterThan(2100);
    expect(agree.length / both.length).toBeGreaterThan(0.4);
  });
});

describe('ubc-grades on the combined 2021S–2025W CSV', () => {
  it('reads a slice of both campuses, suppression kept as null', () => {
    const raw = sample('ubc-grades-2021-2025/ubc-grades-v2-2021S-2025W.csv');
    const lines = raw.split('\n');
    const ubcv = lines.findIndex((line) => line.startsWith('UBCV,'));
    const slice = [lines[0], ...lines.slice(1, 201), ...lines.slice(ubcv, ubcv + 200)].join('\n');
    const out = parse('ubc-grades', slice);
    const rows = out.records as GradeDistribution[];
    expect(rows.length + out.rejected.length).toBe(400);
    expect(new Set(rows.map((r) => r.institution))).toEqual(new Set(['ubc', 'ubco']));
    expect(rows.every((r) => r.format === 'v2')).toBe(true);
    for (const row of rows.filter((r) => r.suppressed)) expect([row.average, row.median, ...row.bins.map((b) => b.count)]).toContain(null);
    expect(valid(rows)).toBe(true);
  });
});
