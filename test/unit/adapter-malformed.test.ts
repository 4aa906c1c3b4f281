import { describe, expect, it } from 'vitest';
import type { CourseFragment, Section } from '../../functions/catalog/catalog-model.js';
import { parseCsv } from '../../functions/catalog/ingestion/csv.js';
import { ADAPTERS, findAdapter } from '../../functions/ingest/adapters/index.js';

const context = { ingestedAt: '2026-01-01T00:00:00.000Z', origin: 'broken-file.json' };
const parse = (source: string, raw: string) => findAdapter(source)!.parse(raw, context);

describe('adapter registry', () => {
  it('registers the eleven sources under unique names and finds them case-insensitively', () => {
    expect(ADAPTERS.map((a) => a.name)).toEqual([
      'sfu-outlines', 'sfu-sections', 'ubc-catalog', 'ubc-calendar', 'ubc-grades', 'langara-catalogue', 'langara-attributes', 'langara-schedule', 'langara-prereqs',
      'uvic-requisites', 'uvic-kuali',
    ]);
    expect(findAdapter(' UBC-Grades ')?.institutions).toEqual(['ubc', 'ubco']);
    expect(findAdapter('sfu-sections')?.institutions).toEqual(['sfu']);
    expect(findAdapter('nope')).toBeUndefined();
  });
});

describe('a broken file', () => {
  it.each(ADAPTERS.map((a) => [a.name]))('%s turns it into one rejected record with a reason, without throwing', (name) => {
    for (const raw of ['{"courses": [', '', 'null']) {
      const output = parse(name, raw);
      expect(output.records).toEqual([]);
      expect(output.rejected).toHaveLength(1);
      expect(output.rejected[0]).toMatchObject({ sourceRecordId: 'broken-file.json', reason: expect.any(String) });
    }
  });

  it('names the JSON error or the shape mismatch in the reason', () => {
    expect(parse('sfu-outlines', '{"courses": [').rejected[0]?.reason).toMatch(/^invalid JSON: /);
    expect(parse('sfu-outlines', '{"courses": []}').rejected[0]?.reason).toMatch(/^unexpected file shape: /);
    expect(parse('langara-catalogue', '{}').rejected[0]?.reason).toMatch(/^unexpected file shape: courses: /);
    expect(parse('langara-schedule', '{"year": 2023, "semester": 40, "courses": []}').rejected[0]?.reason).toBe(
      'not a Langara term: year 2023, semester 40',
    );
    expect(parse('langara-prereqs', 'subject,code\nCPSC,1150\n').rejected[0]?.reason).toBe('CSV header lacks course_code, prerequisite_text');
  });
});

describe('one bad record among good ones', () => {
  const outline = (dept: string, number: unknown, extra: object = {}) => ({ dept, number, title: 'T', units: '3', offerings: [], ...extra });

  it('sfu-outlines rejects the bad course and the bad offering only', () => {
    const raw = JSON.stringify([
      outline('CMPT', '120', { offerings: [{ term: 'Fall 2025', instructors: ['A'] }, { term: 'Autumnal 25', instructors: [] }] }),
      outline('CMPT', 125),
      outline('CMPT', '1'),
      outline('CMPT', '120'),
    ]);
    const output = parse('sfu-outlines', raw);
    expect(output.records.map((r) => `${r.kind} ${r.code}`)).toEqual(['course CMPT 120', 'offering CMPT 120']);
    expect(output.rejected.map((r) => [r.sourceRecordId, r.reason])).toEqual([
      ['CMPT 125', 'unexpected shape: number: Invalid input: expected string, received number'],
      ['CMPT 1', 'not a course code: "CMPT 1"'],
      ['CMPT 120 Autumnal 25', 'not a term: "Autumnal 25"'],
      ['CMPT 120', 'duplicate of an identical earlier record (sfu|CMPT 120|course#sfu-outlines)'],
    ]);
  });

  it('sfu-sections rejects a bad course once and a bad section alone', () => {
    const meeting = { startDate: '', endDate: '', campus: '', days: 'Mo', startTime: '9:30', endTime: '10:20', sectionCode: 'LEC' };
    const raw = JSON.stringify([
      { dept: 'CMPT', number: '120', title: 'T', units: '3', term: 'Fall 2025', sections: [
        { section: 'D100', classNumber: '1', instructors: [{ name: 'A', email: '' }], schedules: [meeting] },
        { section: 'D200', classNumber: '2', instructors: [], schedules: [{ ...meeting, days: 'Mon' }] },
      ] },
      { dept: 'CMPT', number: '125', term: 'Fall 20X5', sections: [{ section: 'D100' }, { section: 'D200' }] },
    ]);
    const output = parse('sfu-sections', raw);
    expect((output.records as Section[]).map((s) => [s.section, s.meetings[0]?.startTime])).toEqual([['D100', '09:30']]);
    expect(output.rejected.map((r) => [r.sourceRecordId, r.reason])).toEqual([
      ['Fall 20X5 CMPT 125', 'not a term: "Fall 20X5"'],
      ['2025-fall CMPT 120 D200', 'unrecognised days: "Mon"'],
    ]);
  });

  it('langara-schedule and langara-attributes reject the malformed entry only', () => {
    const entry = (crn: number, days: string) => ({
      crn, subject: 'CPSC', course_code: 1150, section: '001', credits: 3, title: 'T', seats: 'Inact', waitlist: 'N/A', notes: null,
      schedule: [{ type: 'Seminar', days, time: '0830-1020', start: null, end: null, room: ' ', instructor: ' ' }],
    });
    const schedule = parse('langara-schedule', JSON.stringify({ datetime_retrieved: null, year: 2024, semester: 20, courses: [entry(1, '-T-----'), entry(2, 'Tue')] }));
    expect(schedule.records).toEqual([
      expect.objectContaining({
        term: '2024-summer', instructors: [], seats: { available: null, status: 'inactive', waitlist: null },
        meetings: [{ type: 'SEM', days: ['Tu'], startTime: '08:30', endTime: '10:20' }],
      }),
    ]);
    expect(schedule.records[0]?.provenance.retrievedAt).toBeUndefined();
    expect(schedule.rejected.map((r) => [r.sourceRecordId, r.reason])).toEqual([['202420 2', 'unrecognised days: "Tue"']]);

    const attributes = parse('langara-attributes', JSON.stringify({ attributes: [
      { subject: 'CPSC', course_code: 1150, attributes: { SCI: true, UT: true } },
      { subject: 'CPSC', course_code: 1160, attributes: { SCI: 'yes' } },
    ] }));
    expect((attributes.records as CourseFragment[]).map((r) => r.attributes)).toEqual([['SCI', 'UT']]);
    expect(attributes.rejected).toEqual([expect.objectContaining({ sourceRecordId: 'CPSC 1160', reason: expect.stringMatching(/attributes\.SCI/) })]);
  });

  it('langara-prereqs rejects a row with a missing column by its course while the others parse', () => {
    const csv = [
      'subject,course_code,prerequisite_text',
      'CPSC,1181,"Prerequisite(s): A minimum ""C"" grade in CPSC 1150, or permission."',
      'CPSC,1280',
      'MATH,1271,Prerequisite(s): None.',
      'MATH,1x,Prerequisite(s): MATH 1171.',
    ].join('\n');
    const output = parse('langara-prereqs', csv);
    expect((output.records as CourseFragment[]).map((r) => [r.code, r.prerequisitesText])).toEqual([
      ['CPSC 1181', 'A minimum "C" grade in CPSC 1150, or permission.'],
      ['MATH 1271', 'None.'],
    ]);
    expect(output.rejected.map((r) => [r.sourceRecordId, r.reason])).toEqual([
      ['CPSC 1280', 'line 3: expected 3 columns, got 2'],
      ['MATH 1x', 'not a course code: "MATH 1x"'],
    ]);
  });
});

describe('parseCsv', () => {
  it('reads quoted commas, doubled quotes, line breaks inside quotes, CRLF and a BOM', () => {
    const rows = parseCsv('\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n,,\n\nlast,"",z');
    expect(rows).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x, y', 'say "hi"', 'two\nlines'] },
      { line: 4, fields: ['', '', ''] },
      { line: 6, fields: ['last', '', 'z'] },
    ]);
  });

  it('keeps a stray quote in an unquoted field and flags an unclosed quote', () => {
    expect(parseCsv('5" floppy,b\n')).toEqual([{ line: 1, fields: ['5" floppy', 'b'] }]);
    expect(parseCsv('a,"open\nb,c')).toEqual([{ line: 1, fields: ['a', 'open\nb,c'], error: 'quoted field is never closed' }]);
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('a,')).toEqual([{ line: 1, fields: ['a', ''] }]);
  });
});
