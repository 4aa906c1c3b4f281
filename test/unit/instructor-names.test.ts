import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeInstructors, samePerson, teachersMatching, type NameAppearance } from '../../functions/course/instructor-names.js';
import { ubcGradesAdapter } from '../../functions/ingest/adapters/ubc-grades.js';
import type { GradeDistribution } from '../../functions/catalog/catalog-model.js';

// Every grade row shipped in the sample: the spellings a student meets on UBC course pages.
const DIR = 'data/sample';
const files = [
  'ubc-grades-2021-2025/ubc-grades-v2-2021S-2025W.csv',
  'ubc-grades/pair-reports/UBC-2015W-CPSC.csv',
  'ubc-grades/tableau-dashboard/UBCV-2021W-CPSC.csv',
  ...readdirSync(path.join(DIR, 'ubc-grades/tableau-dashboard-v2')).map((f) => `ubc-grades/tableau-dashboard-v2/${f}`),
];
const byCourse = new Map<string, GradeDistribution[]>();
for (const file of files) {
  const { records } = ubcGradesAdapter.parse(readFileSync(path.join(DIR, file), 'utf8'), { ingestedAt: '2026-11-26T00:00:00.000Z', origin: file });
  for (const row of records as GradeDistribution[]) {
    const key = `${row.institution}:${row.code}`;
    byCourse.set(key, [...(byCourse.get(key) ?? []), row]);
  }
}
const appearancesOf = (rows: GradeDistribution[]): NameAppearance[] => rows.flatMap((r) => r.instructors.map((name) => ({ name, term: r.term, together: r.instructors })));
const peopleOf = (course: string) => mergeInstructors(appearancesOf(byCourse.get(course)!));
const personNamed = (course: string, spelling: string) => peopleOf(course).find((p) => p.variants.includes(spelling));

describe('instructors merged by a normalised name', () => {
  it('UBC CPSC 310: "Nicholas Bradley" (2023) and "Nick Bradley" (2025) are one person shown as the newer spelling; Susanne Bradley is another', () => {
    const nick = personNamed('ubc:CPSC 310', 'Nicholas Bradley')!;
    expect(nick.variants.sort()).toEqual(['Nicholas Bradley', 'Nick Bradley']);
    expect(nick.name).toBe('Nick Bradley');
    expect(peopleOf('ubc:CPSC 310').filter((p) => p.variants.some((v) => v.endsWith('Bradley')))).toHaveLength(1);
    expect(samePerson('Nick Bradley', 'Susanne Bradley')).toBe(false);
  });

  it('merges case, accents, middle names, the name someone goes by and short first names; keeps different first names apart', () => {
    // Each pair is written both ways for one course in the sample data.
    for (const [a, b] of [
      ['Michiel van de Panne', 'Michiel Van De Panne'],
      ['Siân Echard', 'Sian Echard'],
      ['Paul Carter', 'Paul Martin Carter'],
      ['Logan Smilges', 'Johnathan Logan Smilges'],
      ['Katie Burak', 'Katherine Burak'],
      ['Steve Dierker', 'Steven Dierker'],
      ['Ed Knorr', 'Edwin Max Knorr'],
      ['Gren Patey', 'Grenfell Patey'],
    ]) {
      expect(samePerson(a!, b!), `${a} / ${b}`).toBe(true);
    }
    for (const [a, b] of [
      ['Byron Wang', 'Alan Wang'],
      ['Justin Hu', 'Jun Hu'],
      ['Sally Otto', 'Susanne Otto'],
      ['J. Frank Li', 'Jiaze Li'],
    ]) {
      expect(samePerson(a!, b!), `${a} / ${b}`).toBe(false);
    }
  });

  it('never merges two names listed on one section, and leaves a short name that fits two people apart', () => {
    const coTaught = mergeInstructors([
      { name: 'Dan Smith', term: '2024-winter', together: ['Dan Smith', 'Daniel Smith'] },
      { name: 'Daniel Smith', term: '2024-winter', together: ['Dan Smith', 'Daniel Smith'] },
    ]);
    expect(coTaught).toHaveLength(2);
    const ambiguous = mergeInstructors([
      { name: 'Chris Lee', term: '2023-winter' },
      { name: 'Christopher Lee', term: '2024-winter', together: ['Christopher Lee', 'Christine Lee'] },
      { name: 'Christine Lee', term: '2024-winter', together: ['Christopher Lee', 'Christine Lee'] },
    ]);
    expect(ambiguous.map((p) => p.variants.length)).toEqual([1, 1, 1]);
  });

  // The rule over every course in the sample: a merged person's spellings share a family name,
  // agree pairwise, and never sit on one section together.
  it('holds across every UBC course in the sample', () => {
    let merged = 0;
    for (const rows of byCourse.values()) {
      const people = mergeInstructors(appearancesOf(rows));
      const spellings = people.flatMap((p) => p.variants);
      expect(new Set(spellings).size).toBe(spellings.length);
      for (const person of people.filter((p) => p.variants.length > 1)) {
        merged++;
        for (const a of person.variants) for (const b of person.variants) if (a !== b) expect(samePerson(a, b), `${a} / ${b}`).toBe(true);
        for (const row of rows) expect(row.instructors.filter((name) => person.variants.includes(name)).length, `${row.code} ${row.term} ${row.section}`).toBeLessThanOrEqual(1);
      }
    }
    expect(merged).toBeGreaterThan(100);
  });

  it('finds a person by any of their spellings', () => {
    const rows = appearancesOf(byCourse.get('ubc:CPSC 310')!);
    expect([...teachersMatching('Nick Bradley', rows)].sort()).toEqual(['Nicholas Bradley', 'Nick Bradley']);
    expect([...teachersMatching('bradley', rows)].sort()).toEqual(['Nicholas Bradley', 'Nick Bradley']);
  });
});
