import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogRecordSchema, type CourseFragment, type GradeDistribution } from '../../functions/catalog/catalog-model.js';
import { findAdapter } from '../../functions/ingest/adapters/index.js';
import { detectFormat } from '../../functions/ingest/adapters/ubc-grades.js';

const root = new URL('../../data/sample/', import.meta.url);
const sample = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const context = (origin: string) => ({ ingestedAt: '2026-01-01T00:00:00.000Z', origin });
const grades = (raw: string, origin = 'fixture.csv') => findAdapter('ubc-grades')!.parse(raw, context(origin));
const gradeFile = (path: string) => grades(sample(`ubc-grades/${path}`), path);

const V2_HEADER =
  'Campus,Year,Session,Subject,Course,Detail,Section,Title,Professor,Reported,Avg,Median,Percentile (25),Percentile (75),High,Low,<50,50-54,55-59,60-63,64-67,68-71,72-75,76-79,80-84,85-89,90-100';

describe('ubc-catalog on the shipped courses.json', () => {
  const output = findAdapter('ubc-catalog')!.parse(sample('ubc-catalog/courses.json'), context('courses.json'));
  const courses = output.records as CourseFragment[];

  it('emits 958 valid course fragments and rejects none', () => {
    expect(courses).toHaveLength(958);
    expect(output.rejected).toEqual([]);
    for (const record of courses) expect(CatalogRecordSchema.safeParse(record).success).toBe(true);
  });

  it('maps CPSC 221 with its real SSC link as sourceUrl', () => {
    expect(courses.find((c) => c.code === 'CPSC 221')).toEqual({
      kind: 'course',
      institution: 'ubc',
      code: 'CPSC 221',
      provenance: {
        source: 'ubc-catalog',
        sourceRecordId: 'CPSC 221',
        sourceUrl: 'https://courses.students.ubc.ca/cs/courseschedule?pname=subjarea&tname=subj-course&dept=CPSC&course=221',
        ingestedAt: '2026-01-01T00:00:00.000Z',
      },
      title: 'Basic Algorithms and Data Structures',
      description: expect.stringMatching(/^Design and analysis of basic algorithms/),
      credits: 4,
      prerequisitesText: 'One of CPSC 210, CPEN 221 and one of CPSC 121, MATH 220.',
    });
    expect(courses.filter((c) => c.credits === null)).toHaveLength(114);
    expect(courses.filter((c) => c.corequisitesText !== undefined)).toHaveLength(77);
  });
});

describe('ubc-grades on the shipped CSVs', () => {
  it('reads every v2 file (23 files, 2,526 rows) without a reject', () => {
    const files = readdirSync(new URL('ubc-grades/tableau-dashboard-v2/', root));
    expect(files).toHaveLength(23);
    const outputs = files.map((file) => gradeFile(`tableau-dashboard-v2/${file}`));
    expect(outputs.flatMap((o) => o.records)).toHaveLength(2526);
    expect(outputs.flatMap((o) => o.rejected)).toEqual([]);
    for (const record of outputs.flatMap((o) => o.records)) expect(CatalogRecordSchema.safeParse(record).success).toBe(true);
  });

  it('maps a v2 row: reported, average, median, percentiles and the 11 bins as given', () => {
    const phys = (gradeFile('tableau-dashboard-v2/UBCV-2024W-PHYS.csv').records as GradeDistribution[])[0];
    expect(phys).toMatchObject({
      institution: 'ubc',
      code: 'PHYS 100',
      term: '2024-winter',
      section: '101',
      title: 'Introductory Physics',
      instructors: ['Marina Litinskaya'],
      enrolled: 261,
      average: 76.8,
      median: 80,
      percentile25: 72,
      percentile75: 87,
      high: 99,
      low: 0,
      suppressed: false,
      format: 'v2',
      provenance: { source: 'ubc-grades', sourceRecordId: 'UBCV 2024W PHYS 100 101' },
    });
    expect(phys?.bins.map((b) => b.label)).toEqual(['<50', '50-54', '55-59', '60-63', '64-67', '68-71', '72-75', '76-79', '80-84', '85-89', '90-100']);
    expect(phys?.bins.map((b) => b.count)).toEqual([20, 8, 5, 1, 4, 14, 38, 26, 61, 35, 49]);
    expect(phys).not.toHaveProperty('stdDev');
  });

  it('splits "A; B" professors, keeps Detail as a code suffix, and maps UBCO to its own institution', () => {
    const apsc = gradeFile('tableau-dashboard-v2/UBCV-2025W-APSC.csv').records as GradeDistribution[];
    expect(apsc[0]?.instructors).toEqual([
      'Seyyed Alireza Bagherzadeh Hosseini', 'Jon Nakane', 'Peter Ostafichuk', 'Carol Jaeger', 'Amir M. Dehkhoda', 'Christopher McLean',
    ]);
    const cosc = gradeFile('tableau-dashboard-v2/UBCO-2024W-COSC.csv').records as GradeDistribution[];
    expect(new Set(cosc.map((r) => r.institution))).toEqual(new Set(['ubco']));
    expect(cosc.find((r) => r.code === 'COSC 416A')).toMatchObject({ section: '101', enrolled: 142, provenance: { sourceRecordId: 'UBCO 2024W COSC 416A 101' } });
  });

  it('reads v1 with OVERALL rows, standard deviation and unrounded decimals', () => {
    const output = gradeFile('tableau-dashboard/UBCV-2021W-CPSC.csv');
    const records = output.records as GradeDistribution[];
    expect(records).toHaveLength(201);
    expect(output.rejected).toEqual([]);
    expect(records.filter((r) => r.section === 'OVERALL')).toHaveLength(73);
    expect(records[0]).toMatchObject({ code: 'CPSC 100', section: '101', format: 'v1', enrolled: 142, average: 85.366197183, stdDev: 9.284684921, high: 99, low: 33 });
    expect(records[0]?.instructors).toHaveLength(12);
    expect(records.find((r) => r.code === 'CPSC 100' && r.section === 'OVERALL')).toMatchObject({ enrolled: 385, average: 83.244155844, instructors: [] });
    expect(records.find((r) => r.code === 'CPSC 448B' && r.section === 'OVERALL')?.enrolled).toBe(19);
  });

  it('reads PAIR: "Last, First" reordered, all grade bins kept, Pass/Fail/… ignored, suppressed figures null', () => {
    const output = gradeFile('pair-reports/UBC-2015W-CPSC.csv');
    const records = output.records as GradeDistribution[];
    const first = records[0];
    expect(first).toMatchObject({
      institution: 'ubc',
      code: 'CPSC 110',
      term: '2015-winter',
      format: 'pair',
      title: 'COMPTN, PROGRMNG',
      instructors: ['Steven Wolfman'],
      enrolled: 332,
      average: 74.79,
      stdDev: 17.29,
    });
    expect(first?.bins.map((b) => b.label)).toEqual([
      '0-9', '10-19', '20-29', '30-39', '40-49', '<50', '50-54', '55-59', '60-63', '64-67', '68-71', '72-75', '76-79', '80-84', '85-89', '90-100',
    ]);
    expect(first?.bins.find((b) => b.label === '<50')?.count).toBe(40);
    expect(records.find((r) => r.section === '102')?.instructors).toEqual(['Gregor Kiczales']);
    const small = records.find((r) => r.code === 'CPSC 110' && r.section === '1CH');
    expect(small).toMatchObject({ enrolled: 4, average: null, stdDev: null, high: null, low: null, suppressed: true });
    // 30 rows have empty figures; one of them is a repeated OVERALL row, rejected as a duplicate.
    expect(records.filter((r) => r.suppressed)).toHaveLength(29);
  });

  it('rejects PAIR\'s repeated identical OVERALL rows instead of storing them twice', () => {
    const output = gradeFile('pair-reports/UBC-2015W-CPSC.csv');
    expect(output.records).toHaveLength(176);
    expect(output.rejected).toHaveLength(8);
    expect(output.rejected.map((r) => r.sourceRecordId)).toContain('UBC 2015W CPSC 536 OVERALL');
    expect(output.rejected.every((r) => /identical/.test(r.reason))).toBe(true);
  });
});

describe('ubc-grades on inline fixtures', () => {
  it('marks an empty v2 bin as a suppressed null count, never zero (no shipped v2 row has one)', () => {
    const csv = `${V2_HEADER}\nUBCV,2024,W,CPSC,110,,101,Computation,Ada Lovelace;Alan Turing,40,71.5,72.0,65.0,80.0,95,41,,3,4,5,6,7,8,9,,3,2\n`;
    const output = grades(csv);
    expect(output.rejected).toEqual([]);
    const [record] = output.records as GradeDistribution[];
    expect(record?.bins.find((b) => b.label === '<50')).toEqual({ label: '<50', count: null });
    expect(record?.bins.find((b) => b.label === '80-84')).toEqual({ label: '80-84', count: null });
    expect(record?.bins.find((b) => b.label === '90-100')).toEqual({ label: '90-100', count: 2 });
    expect(record).toMatchObject({ suppressed: true, instructors: ['Ada Lovelace', 'Alan Turing'], average: 71.5 });
  });

  it('rejects a short row and a non-numeric figure by row id while the other rows parse', () => {
    const csv = [
      V2_HEADER,
      'UBCV,2024,W,CPSC,110,,101,Computation,A,40,71.5,72.0,65.0,80.0,95,41,1,2,3,4,5,6,7,8,2,1,1',
      'UBCV,2024,W,CPSC,110,,102,Computation,B,40,71.5,72.0,65.0,80.0,95,41,1,2,3,4,5,6,7,8,2,1',
      'UBCV,2024,W,CPSC,110,,103,Computation,C,forty,71.5,72.0,65.0,80.0,95,41,1,2,3,4,5,6,7,8,2,1,1',
      '"UBCV",2024,W,CPSC,110,,104,"Computation, ""Honours""",D,40,71.5,72.0,65.0,80.0,95,41,1,2,3,4,5,6,7,8,2,1,1',
    ].join('\r\n');
    const output = grades(csv);
    expect((output.records as GradeDistribution[]).map((r) => [r.section, r.title])).toEqual([
      ['101', 'Computation'],
      ['104', 'Computation, "Honours"'],
    ]);
    expect(output.rejected.map((r) => [r.sourceRecordId, r.reason])).toEqual([
      ['UBCV 2024W CPSC 110 102', 'line 3: expected 27 columns, got 26'],
      ['UBCV 2024W CPSC 110 103', 'Reported is not a number: "forty"'],
    ]);
  });

  it('rejects an unknown campus row and an unrecognised header as one file-level reject', () => {
    const bad = grades(`${V2_HEADER}\nUBCX,2024,W,CPSC,110,,101,T,A,40,71.5,72.0,65.0,80.0,95,41,1,2,3,4,5,6,7,8,2,1,1\n`);
    expect(bad.rejected).toEqual([expect.objectContaining({ sourceRecordId: 'UBCX 2024W CPSC 110 101', reason: 'unknown campus: "UBCX"' })]);
    const unknown = grades('Campus,Year,Grade\nUBCV,2024,A\n', 'odd.csv');
    expect(unknown.records).toEqual([]);
    expect(unknown.rejected).toEqual([expect.objectContaining({ sourceRecordId: 'odd.csv', reason: expect.stringMatching(/unrecognised grades CSV header/) })]);
  });

  it('detects the three header formats', () => {
    expect(detectFormat(V2_HEADER.split(','))).toBe('v2');
    expect(detectFormat(sample('ubc-grades/tableau-dashboard/UBCV-2021W-CPSC.csv').split('\n')[0]!.split(','))).toBe('v1');
    expect(detectFormat(sample('ubc-grades/pair-reports/UBC-2015W-CPSC.csv').split('\n')[0]!.replaceAll('"', '').split(','))).toBe('pair');
    expect(detectFormat(['Campus', 'Reported'])).toBeUndefined();
  });
});
