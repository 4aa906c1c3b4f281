import { describe, expect, it } from 'vitest';
import { checkPrerequisites } from '../../functions/course/prerequisites/check.js';
import { meetsGrade } from '../../functions/course/prerequisites/grades.js';
import { parsePrerequisites } from '../../functions/course/prerequisites/parser.js';
import { extractRequisites } from '../../functions/course/prerequisites/requisites.js';
import { loadSfuOutlines, loadUbcCourses } from '../../functions/course/prerequisites/sources.js';
import type { RequirementNode } from '../../functions/course/prerequisites/tree.js';

// Trees come from parsing real catalog texts, so these also exercise parser + checker together.
const tree = (text: string, institution = 'sfu') => parsePrerequisites(text, { institution }).tree;

const CMPT_201 = tree('(CMPT 125 or CMPT 135) and MACM 101, both with a minimum grade of C-.');
const course = (code: string, minGrade = 'C-'): RequirementNode => ({ type: 'course', code, institution: 'sfu', minGrade });

describe('checkPrerequisites', () => {
  it('is satisfied when every branch is met, accepting codes in any spelling', () => {
    const result = checkPrerequisites(CMPT_201, [{ code: 'cmpt125', grade: 'B' }, { code: 'MACM 101', grade: 'C' }]);
    expect(result).toMatchObject({ satisfied: true, missing: [], unmetConditions: [] });
    expect(result.explanation[0]).toBe('Satisfied.');
    expect(result.explanation).toContain('CMPT 125: B meets the minimum C-.');
  });

  it('names the smallest missing parts', () => {
    const result = checkPrerequisites(CMPT_201, [{ code: 'MACM 101', grade: 'A' }]);
    expect(result.satisfied).toBe(false);
    expect(result.missing).toEqual([{ type: 'any', children: [course('CMPT 125'), course('CMPT 135')] }]);
    expect(result.explanation[0]).toBe('Not satisfied: still needs one of (CMPT 125 (C- or better), CMPT 135 (C- or better)).');

    const cmpt354 = tree('CMPT 225 and (MACM 101 or (ENSC 251 and ENSC 252)), all with a minimum grade of C-.');
    const partial = checkPrerequisites(cmpt354, [{ code: 'ENSC 251', grade: 'B' }]);
    expect(partial.missing).toEqual([course('CMPT 225'), { type: 'any', children: [course('MACM 101'), course('ENSC 252')] }]);
  });

  it('fails a grade below the minimum and explains why', () => {
    const result = checkPrerequisites(CMPT_201, [{ code: 'CMPT 125', grade: 'D' }, { code: 'MACM 101', grade: 'B+' }]);
    expect(result.satisfied).toBe(false);
    expect(result.explanation).toContain('CMPT 125: D is below the minimum C-.');
  });

  it('answers "unknown" when a completed course has no grade but a minimum is required', () => {
    const result = checkPrerequisites(CMPT_201, [{ code: 'CMPT 125' }, { code: 'MACM 101', grade: 'B' }]);
    expect(result.satisfied).toBe('unknown');
    expect(result.missing).toEqual([]);
    expect(result.explanation).toContain('CMPT 125: completed, but no grade was given and at least C- is required, so this is unknown.');
  });

  it('lets in-progress courses satisfy only nodes that allow concurrency', () => {
    const ensc220 = tree(
      '(PHYS 121 or PHYS 126 or PHYS 141), ENSC 120, MATH 232 and (MATH 260 or MATH 310), all with a minimum grade of C-. MATH 260 may be taken concurrently.',
    );
    const done = [{ code: 'PHYS 121', grade: 'B' }, { code: 'ENSC 120', grade: 'B' }];
    expect(checkPrerequisites(ensc220, [...done, { code: 'MATH 232', grade: 'C' }], { concurrent: ['MATH 260'] }).satisfied).toBe(true);
    const early = checkPrerequisites(ensc220, done, { concurrent: ['MATH 260', 'MATH 232'] });
    expect(early.satisfied).toBe(false);
    expect(early.missing).toEqual([course('MATH 232')]);
    expect(early.explanation).toContain('MATH 232: in progress, but it must be completed beforehand with C- or better.');
    const coreq = tree('CHEM 121 with a minimum grade of C-. Corequisite: CHEM 122.');
    expect(checkPrerequisites(coreq, [{ code: 'CHEM 121', grade: 'B' }], { concurrent: ['CHEM 122'] }).satisfied).toBe(true);
  });

  it('reports conditions it cannot verify and answers "unknown" only when the rest is met', () => {
    const cmpt427 = tree('CMPT 426, CGPA of 2.50.');
    const met = checkPrerequisites(cmpt427, [{ code: 'CMPT 426' }]);
    expect(met).toMatchObject({ satisfied: 'unknown', missing: [], unmetConditions: ['CGPA of 2.50'] });
    expect(met.explanation[0]).toBe('Cannot be confirmed: everything checkable is met, but these cannot be verified: CGPA of 2.50.');
    expect(checkPrerequisites(cmpt427, []).satisfied).toBe(false);
    // "… or permission of instructor": the permission might be granted, so a missing course is not fatal.
    const stat851 = tree('STAT 830 and STAT 850 or permission of instructor.');
    expect(checkPrerequisites(stat851, [{ code: 'STAT 830' }])).toMatchObject({ satisfied: 'unknown', unmetConditions: ['permission of instructor'] });
  });

  it('needs `count` alternatives for "two of"', () => {
    const psyc320 = tree('Either (a) PSYC 100 or (b) two of PSYC 101, PSYC 102, PSYC 205, PSYC 207, PSYC 208, PSYC 216, PSYC 217, PSYC 277.', 'ubc');
    expect(checkPrerequisites(psyc320, [{ code: 'PSYC 101' }, { code: 'PSYC 217' }]).satisfied).toBe(true);
    const one = checkPrerequisites(psyc320, [{ code: 'PSYC 101' }]);
    expect(one.satisfied).toBe(false);
    expect(one.explanation).toContain('2 of 8 alternatives are needed; 1 met.');
    const remaining = ['PSYC 102', 'PSYC 205', 'PSYC 207', 'PSYC 208', 'PSYC 216', 'PSYC 217', 'PSYC 277'];
    expect(one.missing).toEqual([
      { type: 'any', children: [{ type: 'course', code: 'PSYC 100', institution: 'ubc' }, ...remaining.map((code) => ({ type: 'course', code, institution: 'ubc' }))] },
    ]);
    const bio = tree('A minimum "C" grade in two of: BIOL 2315, 2330, or 2415; and a minimum "C" grade in CPSC 1150 or 1155.', 'langara');
    const grades = [{ code: 'BIOL 2315', grade: 'B' }, { code: 'BIOL 2330', grade: 'C-' }, { code: 'BIOL 2415', grade: 'A' }, { code: 'CPSC 1155', grade: 'C' }];
    expect(checkPrerequisites(bio, grades).satisfied).toBe(true);
    expect(checkPrerequisites(bio, grades.filter((g) => g.code !== 'BIOL 2415')).satisfied).toBe(false);
  });

  it('compares percentages with letters through the UBC table', () => {
    const chem213 = tree('Either (a) one of CHEM 203, CHEM 223 or (b) a score of 76% or higher in CHEM 233.', 'ubc');
    expect(checkPrerequisites(chem213, [{ code: 'CHEM 233', grade: 'B+' }]).satisfied).toBe(true);
    expect(checkPrerequisites(chem213, [{ code: 'CHEM 233', grade: '74' }]).satisfied).toBe(false);
    const stat305 = tree('A score of 65% or higher in one of MATH 302, STAT 302.', 'ubc');
    const straddles = checkPrerequisites(stat305, [{ code: 'STAT 302', grade: 'C+' }]);
    expect(straddles.satisfied).toBe('unknown');
    expect(straddles.explanation).toContain("STAT 302: C+ spans 64–67% on UBC's scale, so it may or may not meet 65% (unknown).");
    expect(checkPrerequisites(CMPT_201, [{ code: 'CMPT 135', grade: '56%' }, { code: 'MACM 101', grade: '80' }]).satisfied).toBe(true);
  });

  it('treats pass grades and failing outcomes sensibly', () => {
    const binf = tree('Prerequisite(s): An "S" grade in BINF 2100.', 'langara');
    expect(checkPrerequisites(binf, [{ code: 'BINF 2100', grade: 'S' }]).satisfied).toBe(true);
    expect(checkPrerequisites(binf, [{ code: 'BINF 2100', grade: 'C' }]).satisfied).toBe(true);
    expect(checkPrerequisites(tree('CMPT 732.'), [{ code: 'CMPT 732', grade: 'F' }]).satisfied).toBe(false);
    expect(checkPrerequisites(CMPT_201, [{ code: 'CMPT 125', grade: 'P' }, { code: 'MACM 101', grade: 'A' }]).satisfied).toBe('unknown');
  });

  it('is satisfied by an empty requirement and flags unparsed text as unverifiable', () => {
    expect(checkPrerequisites(tree('None'), []).satisfied).toBe(true);
    const unparsed: RequirementNode = { type: 'all', children: [course('CMPT 225'), { type: 'unparsed', text: 'Tri-council ethics paperwork' }] };
    expect(checkPrerequisites(unparsed, [{ code: 'CMPT 225', grade: 'A' }])).toMatchObject({
      satisfied: 'unknown',
      unmetConditions: ['(unparsed) Tri-council ethics paperwork'],
    });
  });
});

describe('meetsGrade', () => {
  it.each<[string, string, 'yes' | 'no' | 'unknown']>([
    ['A+', 'A', 'yes'],
    ['B-', 'B', 'no'],
    ['C-', 'C-', 'yes'],
    ['D', 'C-', 'no'],
    ['72%', 'B', 'yes'],
    ['71', 'B', 'no'],
    ['B', '72%', 'yes'],
    ['B', '76%', 'no'],
    ['B', '74%', 'unknown'],
    ['S', 'S', 'yes'],
    ['F', 'S', 'no'],
    ['P', 'C', 'unknown'],
    ['XYZ', 'C', 'unknown'],
  ])('%s against a minimum of %s → %s', (earned, required, expected) => {
    expect(meetsGrade(earned, required).result).toBe(expected);
  });
});

describe('extractRequisites', () => {
  it('reads SFU credit exclusions, carrying subjects over', () => {
    expect(extractRequisites('Students with credit for CMPT 102, 120, 128 or 166 may not take this course for further credit. Students who have taken CMPT 125, 129 or 135 first may not then take this course for further credit.')).toEqual([
      { codes: ['CMPT 102', 'CMPT 120', 'CMPT 128', 'CMPT 166'], text: 'Students with credit for CMPT 102, 120, 128 or 166 may not take this course for further credit' },
      { codes: ['CMPT 125', 'CMPT 129', 'CMPT 135'], text: 'Students who have taken CMPT 125, 129 or 135 first may not then take this course for further credit' },
    ]);
    expect(extractRequisites('Students with credit for ENSC/CMPT 150 or ENSC 329/MSE 350 cannot take this course for further credit.')[0]?.codes).toEqual([
      'ENSC 150',
      'CMPT 150',
      'ENSC 329',
      'MSE 350',
    ]);
    // Years and term codes are not course numbers.
    expect(extractRequisites('Students with credit for ECON 210 or ECON 389 in 1131 or 1134 cannot take ECON 310 for further credit.', { self: 'ECON 310' })[0]?.codes).toEqual(['ECON 210', 'ECON 389']);
    expect(extractRequisites('No credit will be given for CHEM 481 or CHEM 483 if CHEM 484 is completed.', { self: 'CHEM 484' })[0]?.codes).toEqual(['CHEM 481', 'CHEM 483']);
    expect(extractRequisites('PHYS 285 will be accepted in lieu of CHEM 260.')).toEqual([]);
  });

  it('reads UBC "Credit will be granted for only one of" sentences, leaving the course itself out', () => {
    const apsc160 = loadUbcCourses().find((course) => course.code === 'APSC 160')!;
    expect(extractRequisites(apsc160.desc!, { self: 'APSC 160' })).toEqual([{ codes: ['CPSC 301', 'EOSC 211'], text: 'Credit will only be given for one of: APSC 160, CPSC 301, or EOSC 211' }]);
  });

  it('finds an exclusion in most shipped SFU notes and UBC descriptions that state one', () => {
    const sfu = loadSfuOutlines().filter((outline) => /for (further )?credit/i.test(outline.notes ?? ''));
    const found = sfu.filter((outline) => extractRequisites(outline.notes!, { self: `${outline.dept} ${outline.number}` }).length > 0);
    expect(found.length / sfu.length).toBeGreaterThan(0.9);
    const ubc = loadUbcCourses().filter((course) => /credit will/i.test(course.desc ?? ''));
    expect(ubc.every((course) => extractRequisites(course.desc!, { self: course.code }).length > 0)).toBe(true);
  });
});
