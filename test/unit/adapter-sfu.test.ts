import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogRecordSchema, recordId, type CourseFragment, type Offering, type Section } from '../../functions/catalog/catalog-model.js';
import { parseSfuDays, padTime } from '../../functions/ingest/adapters/sfu-sections.js';
import { findAdapter } from '../../functions/ingest/adapters/index.js';

const sample = (path: string): string => readFileSync(new URL(`../../data/sample/${path}`, import.meta.url), 'utf8');
const parse = (source: string, path: string) =>
  findAdapter(source)!.parse(sample(path), { ingestedAt: '2026-01-01T00:00:00.000Z', origin: path });

describe('sfu-outlines on the shipped outlines.json', () => {
  const output = parse('sfu-outlines', 'sfu-outlines/outlines.json');
  const courses = output.records.filter((r): r is CourseFragment => r.kind === 'course');
  const offerings = output.records.filter((r): r is Offering => r.kind === 'offering');
  const course = (code: string) => courses.find((c) => c.code === code);

  it('emits one fragment per course and one offering per offerings[] entry, rejecting none', () => {
    expect(courses).toHaveLength(1064);
    expect(offerings).toHaveLength(4712);
    expect(output.rejected).toEqual([]);
    expect(new Set(courses.map((c) => c.code)).size).toBe(1064);
  });

  it('maps CMPT 225 field by field', () => {
    expect(course('CMPT 225')).toMatchObject({
      institution: 'sfu',
      title: 'Data Structures and Programming',
      credits: 3,
      prerequisitesText: '(MACM 101 and (CMPT 125, CMPT 129 or CMPT 135)) or (ENSC 251 and ENSC 252), all with a minimum grade of C-.',
      designation: 'Quantitative',
      deliveryMethod: 'In Person',
      degreeLevel: 'UGRD',
      provenance: { source: 'sfu-outlines', sourceRecordId: 'CMPT 225', ingestedAt: '2026-01-01T00:00:00.000Z' },
    });
    // Empty source strings are absent, not "": they must not blank another source's value on merge.
    expect(Object.keys(course('CMPT 225')!)).not.toContain('notes');
    expect(Object.keys(course('CMPT 225')!)).not.toContain('corequisitesText');
    expect(course('CMPT 225')?.provenance.sourceUrl).toBeUndefined();
  });

  it('keeps letter-suffixed codes, notes, corequisites, and reads units as numbers or null', () => {
    expect(course('CMPT 105W')).toMatchObject({ designation: 'Writing', notes: expect.stringMatching(/^Students with credit for ENSC 102/) });
    expect(course('BISC 171')?.corequisitesText).toBe('BISC 101 or 102; and completion of fewer than 60 units.');
    expect(course('PSYC 912')?.credits).toBe(1.5);
    expect(course('CMPT 896')?.credits).toBeNull();
    expect(courses.filter((c) => c.credits === null)).toHaveLength(28);
  });

  it('drops the "N/A" designation and blank degree levels', () => {
    expect(course('CMPT 201')).toBeDefined();
    expect(course('CMPT 201')?.designation).toBeUndefined();
    expect(courses.some((c) => c.designation === 'N/A')).toBe(false);
    expect(course('IAT 879')?.degreeLevel).toBeUndefined();
  });

  it('turns "Fall 2025" into 2025-fall offerings with their instructors', () => {
    const fall = offerings.find((o) => o.code === 'CMPT 225' && o.term === '2025-fall');
    expect(fall).toMatchObject({ instructors: ['Igor Shinkar', 'John Edgar'], provenance: { sourceRecordId: 'CMPT 225 2025-fall' } });
    expect(offerings.filter((o) => o.code === 'CMPT 225').map((o) => o.term)).toEqual([
      '2026-fall', '2026-summer', '2026-spring', '2025-fall', '2025-summer', '2025-spring', '2024-fall', '2024-summer', '2024-spring',
    ]);
    expect(offerings.filter((o) => o.term === '2025-fall')).toHaveLength(602);
    expect(new Set(output.records.map((r) => `${r.code}|${recordId(r)}`)).size).toBe(output.records.length);
  });

  it('produces only records that validate', () => {
    for (const record of output.records) expect(CatalogRecordSchema.safeParse(record).success).toBe(true);
  });
});

describe('sfu-sections on the shipped term files', () => {
  const fall = parse('sfu-sections', 'sfu-outlines/sections-2025-fall.json');
  const spring = parse('sfu-sections', 'sfu-outlines/sections-2026-spring.json');
  const sections = (output: typeof fall) => output.records as Section[];
  const find = (output: typeof fall, code: string, section: string) =>
    sections(output).find((s) => s.code === code && s.section === section);

  it('emits 542 sections for 2025-fall and 525 for 2026-spring, rejecting none', () => {
    expect(fall.records).toHaveLength(542);
    expect(spring.records).toHaveLength(525);
    expect(fall.rejected).toEqual([]);
    expect(spring.rejected).toEqual([]);
    expect(new Set(sections(fall).map((s) => s.term))).toEqual(new Set(['2025-fall']));
    expect(new Set(sections(spring).map((s) => s.term))).toEqual(new Set(['2026-spring']));
  });

  it('maps CMPT 105W D100 in 2025-fall with its meeting, instructor and campus', () => {
    expect(find(fall, 'CMPT 105W', 'D100')).toEqual({
      kind: 'section',
      institution: 'sfu',
      code: 'CMPT 105W',
      provenance: { source: 'sfu-sections', sourceRecordId: '2025-fall CMPT 105W D100', ingestedAt: '2026-01-01T00:00:00.000Z' },
      term: '2025-fall',
      section: 'D100',
      title: 'Social Issues and Communication Strategies in Computing Science',
      classNumber: '5416',
      credits: 3,
      deliveryMethod: 'In Person',
      campus: 'Surrey',
      instructors: ['Harinder Khangura'],
      meetings: [
        { type: 'LEC', days: ['Mo', 'We', 'Fr'], startTime: '13:30', endTime: '14:20', startDate: '2025-09-03', endDate: '2025-12-02', campus: 'Surrey' },
      ],
    });
  });

  it('zero-pads times, keeps meetings without days or campus, and never invents seats', () => {
    expect(find(spring, 'CMPT 105W', 'D200')?.meetings.map((m) => [m.days, m.startTime, m.endTime])).toEqual([
      [['Tu'], '08:30', '10:20'],
      [['Th'], '08:30', '09:20'],
    ]);
    const independent = find(fall, 'CMPT 415', 'D010');
    expect(independent?.meetings).toEqual([{ type: 'IND', days: [], startDate: '2025-09-03', endDate: '2025-12-02' }]);
    expect(independent?.campus).toBeUndefined();
    expect(sections(fall).some((s) => s.seats !== undefined)).toBe(false);
    expect(sections(fall).filter((s) => s.instructors.length === 0)).toHaveLength(113);
    for (const record of [...fall.records, ...spring.records]) expect(CatalogRecordSchema.safeParse(record).success).toBe(true);
  });

  it('parses day lists and times strictly', () => {
    expect(parseSfuDays('Mo, Tu, We, Th, Fr')).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr']);
    expect(parseSfuDays('MoWe')).toEqual(['Mo', 'We']);
    expect(parseSfuDays('')).toEqual([]);
    expect(() => parseSfuDays('Mo, Xx')).toThrow(/unrecognised days/);
    expect(padTime('8:30')).toBe('08:30');
    expect(padTime('')).toBeUndefined();
    expect(() => padTime('25:00')).toThrow(/unrecognised time/);
  });
});
