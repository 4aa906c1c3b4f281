import { describe, expect, it } from 'vitest';
import { parsePrerequisites } from '../../functions/course/prerequisites/parser.js';
import type { ConditionNode, CourseNode, RequirementNode } from '../../functions/course/prerequisites/tree.js';

// Every text below is copied verbatim from data/sample (SFU outlines, UBC catalog, Langara CSV).

const course = (institution: string) => (code: string, extra: Partial<CourseNode> = {}): CourseNode => ({
  type: 'course',
  code,
  institution,
  ...extra,
});
const sfu = course('sfu');
const ubc = course('ubc');
const lang = course('langara');
const all = (...children: RequirementNode[]): RequirementNode => ({ type: 'all', children });
const any = (...children: RequirementNode[]): RequirementNode => ({ type: 'any', children });
const cond = (category: ConditionNode['category'], text: string, extra: Partial<ConditionNode> = {}): ConditionNode => ({
  type: 'condition',
  text,
  category,
  ...extra,
});
const C = { minGrade: 'C-' };

function parse(text: string, institution: string, defaultSubject?: string, corequisite?: boolean) {
  const result = parsePrerequisites(text, { institution, defaultSubject, corequisite });
  expect(result.fullyParsed, `unparsed: ${result.unparsedClauses.join(' | ')}`).toBe(true);
  return result;
}

describe('parsePrerequisites on SFU outlines', () => {
  it.each<[string, string, RequirementNode]>([
    ['CMPT 201', '(CMPT 125 or CMPT 135) and MACM 101, both with a minimum grade of C-.', all(any(sfu('CMPT 125', C), sfu('CMPT 135', C)), sfu('MACM 101', C))],
    [
      'CMPT 354',
      'CMPT 225 and (MACM 101 or (ENSC 251 and ENSC 252)), all with a minimum grade of C-.',
      all(sfu('CMPT 225', C), any(sfu('MACM 101', C), all(sfu('ENSC 251', C), sfu('ENSC 252', C)))),
    ],
    [
      'MATH 152',
      'MATH 150 or 151 or 155, with a minimum grade of C-; or MATH 154 or 157, with a grade of at least B.',
      any(sfu('MATH 150', C), sfu('MATH 151', C), sfu('MATH 155', C), sfu('MATH 154', { minGrade: 'B' }), sfu('MATH 157', { minGrade: 'B' })),
    ],
    [
      'MACM 204',
      'One of CMPT 102, 120, 126, 128 or 130 and one of MATH 152, 155, or 158.',
      all(any(sfu('CMPT 102'), sfu('CMPT 120'), sfu('CMPT 126'), sfu('CMPT 128'), sfu('CMPT 130')), any(sfu('MATH 152'), sfu('MATH 155'), sfu('MATH 158'))),
    ],
    [
      'CMPT 130',
      'BC Math 12 (or equivalent, or any of MATH 100, 150, 151, 154, or 157, with a minimum grade of C-).',
      any(cond('high-school', 'BC Math 12', { orEquivalent: true }), ...['MATH 100', 'MATH 150', 'MATH 151', 'MATH 154', 'MATH 157'].map((code) => sfu(code, C))),
    ],
    [
      'CMPT 210',
      'MACM 101, MATH 152, CMPT 125 or CMPT 135, and (MATH 240 or MATH 232), all with a minimum grade of C-.',
      all(sfu('MACM 101', C), sfu('MATH 152', C), any(sfu('CMPT 125', C), sfu('CMPT 135', C)), any(sfu('MATH 240', C), sfu('MATH 232', C))),
    ],
    [
      'CMPT 340',
      'Completion of 60 units including one of CMPT 125, 126, 128, 135, with a minimum grade of C- or CMPT 102 with a grade of B or higher.',
      all(
        cond('credits', 'Completion of 60 units', { value: 60 }),
        any(sfu('CMPT 125', C), sfu('CMPT 126', C), sfu('CMPT 128', C), sfu('CMPT 135', C), sfu('CMPT 102', { minGrade: 'B' })),
      ),
    ],
    ['CMPT 427', 'CMPT 426, CGPA of 2.50.', all(sfu('CMPT 426'), cond('gpa', 'CGPA of 2.50', { value: 2.5 }))],
    ['ENGL 300', '30 units or two 200-division English courses.', any(cond('credits', '30 units', { value: 30 }), cond('other', 'two 200-division English courses'))],
    ['CMPT 839', 'CMPT 413 or CMPT 713, CMPT 726 or CMPT 728.', all(any(sfu('CMPT 413'), sfu('CMPT 713')), any(sfu('CMPT 726'), sfu('CMPT 728')))],
    [
      'ECON 434',
      'ECON 333 (or BUEC 333) and ECON 302, all with a minimum grade of C-.',
      all(any(sfu('ECON 333', C), sfu('BUEC 333', C)), sfu('ECON 302', C)),
    ],
    ['STAT 851', 'STAT 830 and STAT 850 or permission of instructor.', all(sfu('STAT 830'), any(sfu('STAT 850'), cond('permission', 'permission of instructor')))],
    [
      'MATH 443',
      'MATH 340 with a minimum grade of C- and either MATH 343 with a minimum grade of C- or MACM 201 with a minimum grade of B+.',
      all(sfu('MATH 340', C), any(sfu('MATH 343', C), sfu('MACM 201', { minGrade: 'B+' }))),
    ],
    [
      'BISC 212',
      'BISC 101 and 102, both with a minimum grade of C-, and completion of less than 60 units; or permission of the instructor.',
      any(
        all(sfu('BISC 101', C), sfu('BISC 102', C), cond('credits', 'completion of less than 60 units', { value: 60 })),
        cond('permission', 'permission of the instructor'),
      ),
    ],
    ['CMPT 732', 'This course is only available to students enrolled in the master of science in big data program.', cond('program', 'This course is only available to students enrolled in the master of science in big data program')],
  ])('%s', (_course, text, tree) => {
    expect(parse(text, 'sfu', _course.split(' ')[0]).tree).toEqual(tree);
  });

  it('marks "may be taken concurrently" and "Corequisite:" courses as concurrent', () => {
    const text = '(PHYS 121 or PHYS 126 or PHYS 141), ENSC 120, MATH 232 and (MATH 260 or MATH 310), all with a minimum grade of C-. MATH 260 may be taken concurrently.';
    expect(parse(text, 'sfu').tree).toEqual(
      all(any(sfu('PHYS 121', C), sfu('PHYS 126', C), sfu('PHYS 141', C)), sfu('ENSC 120', C), sfu('MATH 232', C), any(sfu('MATH 260', { ...C, concurrent: true }), sfu('MATH 310', C))),
    );
    expect(parse('CHEM 121 with a minimum grade of C-. Corequisite: CHEM 122.', 'sfu').tree).toEqual(all(sfu('CHEM 121', C), sfu('CHEM 122', { concurrent: true })));
    const chem = parse('Pre-Calculus 12 (or equivalent), MATH 100 (may be taken concurrently), or permission of the department. No previous training in chemistry is required for this course.', 'sfu');
    expect(chem.tree).toEqual(any(cond('high-school', 'Pre-Calculus 12', { orEquivalent: true }), sfu('MATH 100', { concurrent: true }), cond('permission', 'permission of the department')));
    expect(chem.notes).toEqual(['No previous training in chemistry is required for this course']);
  });

  it('applies "may be substituted for" sentences to the named courses', () => {
    const text =
      'CMPT 225, (MACM 201 or CMPT 210), (MATH 150 or MATH 151), and (MATH 232 or MATH 240), all with a minimum grade of C-. MATH 154 or MATH 157 with a grade of at least B+ may be substituted for MATH 150 or MATH 151.';
    expect(parse(text, 'sfu').tree).toEqual(
      all(
        sfu('CMPT 225', C),
        any(sfu('MACM 201', C), sfu('CMPT 210', C)),
        any(sfu('MATH 150', C), sfu('MATH 151', C), sfu('MATH 154', { minGrade: 'B+' }), sfu('MATH 157', { minGrade: 'B+' })),
        any(sfu('MATH 232', C), sfu('MATH 240', C)),
      ),
    );
  });

  it('puts recommendations and administrative clauses aside instead of requiring them', () => {
    const cmpt310 = parse('CMPT 225 and STAT 271, all with a minimum grade of C-. Recommended: MATH 251.', 'sfu');
    expect(cmpt310.tree).toEqual(all(sfu('CMPT 225', C), sfu('STAT 271', C)));
    expect(cmpt310.recommended).toEqual(['MATH 251']);
    const math337 = parse('MATH 336 and permission of the co-op co-ordinator; students must apply at least one term in advance.', 'sfu');
    expect(math337.tree).toEqual(all(sfu('MATH 336'), cond('permission', 'permission of the co-op co-ordinator')));
    expect(math337.notes).toEqual(['students must apply at least one term in advance']);
    expect(parse('BC Math 12 or equivalent is recommended.', 'sfu')).toMatchObject({ tree: all(), recommended: ['BC Math 12 or equivalent is recommended'] });
  });
});

describe('parsePrerequisites on the UBC catalog', () => {
  it.each<[string, string, RequirementNode]>([
    [
      'BIOL 300',
      'Either (a) BIOL 121 and one of MATH 101, MATH 103, MATH 105, MATH 121; or (b) SCIE 001.',
      any(all(ubc('BIOL 121'), any(ubc('MATH 101'), ubc('MATH 103'), ubc('MATH 105'), ubc('MATH 121'))), ubc('SCIE 001')),
    ],
    ['CHEM 213', 'Either (a) one of CHEM 203, CHEM 223 or (b) a score of 76% or higher in CHEM 233.', any(ubc('CHEM 203'), ubc('CHEM 223'), ubc('CHEM 233', { minGrade: '76%' }))],
    ['APSC 364', 'Third-year standing.', cond('standing', 'Third-year standing', { value: 3 })],
    ['CPSC 121', 'Principles of Mathematics 12 or Pre-calculus 12.', any(cond('high-school', 'Principles of Mathematics 12'), cond('high-school', 'Pre-calculus 12'))],
    [
      'BIOL 233',
      'Either (a) all of BIOL 112, BIOL 121 or (b) SCIE 001; or (c) a corequisite of one of CHEM 203 or CHEM 223 and one of BIOL 112 or BIOL 121.',
      any(
        all(ubc('BIOL 112'), ubc('BIOL 121')),
        ubc('SCIE 001'),
        all(any(ubc('CHEM 203', { concurrent: true }), ubc('CHEM 223', { concurrent: true })), any(ubc('BIOL 112'), ubc('BIOL 121'))),
      ),
    ],
    [
      'CPSC 320',
      'CPSC 221 and at least 3 credits from COMM 291, BIOL 300, MATH or STAT at 200 level or above.',
      all(ubc('CPSC 221'), any(ubc('COMM 291'), ubc('BIOL 300'), cond('other', 'MATH or STAT at 200 level or above'))),
    ],
    ['ECON 307', 'A score of 68% or higher in ECON 305. Or permission of the School.', any(ubc('ECON 305', { minGrade: '68%' }), cond('permission', 'permission of the School'))],
    [
      'MATH 184',
      'A grade of 80% or higher in BC Principles of Mathematics 12 or Pre-calculus 12.',
      any(cond('high-school', 'BC Principles of Mathematics 12', { minGrade: '80%' }), cond('high-school', 'Pre-calculus 12', { minGrade: '80%' })),
    ],
  ])('%s', (_course, text, tree) => {
    expect(parse(text, 'ubc').tree).toEqual(tree);
  });

  it('reads "two of" as a counted choice and keeps "Strongly recommended" aside', () => {
    const result = parse(
      'Either (a) PSYC 100 or (b) two of PSYC 101, PSYC 102, PSYC 205, PSYC 207, PSYC 208, PSYC 216, PSYC 217, PSYC 277. Strongly recommended: PSYC 216 or one of PSYC 217 or 277.',
      'ubc',
    );
    const listed = ['PSYC 101', 'PSYC 102', 'PSYC 205', 'PSYC 207', 'PSYC 208', 'PSYC 216', 'PSYC 217', 'PSYC 277'].map((code) => ubc(code));
    expect(result.tree).toEqual(any(ubc('PSYC 100'), { type: 'any', children: listed, count: 2 }));
    expect(result.recommended).toEqual(['PSYC 216 or one of PSYC 217 or 277']);
  });

  it('chains "one of … and one of …" and drops the recommendation sentences', () => {
    const result = parse(
      'One of ECON 101, ECON 310 and one of ECON 102, ECON 311 and one of MATH 100, MATH 102, MATH 104, MATH 110, MATH 120, MATH 180, MATH 184 and one of MATH 101, MATH 103, MATH 105, MATH 121. MATH 104, 110 or 184 recommended. MATH 105 recommended.',
      'ubc',
    );
    expect(result.tree).toEqual(
      all(
        any(ubc('ECON 101'), ubc('ECON 310')),
        any(ubc('ECON 102'), ubc('ECON 311')),
        any(...['MATH 100', 'MATH 102', 'MATH 104', 'MATH 110', 'MATH 120', 'MATH 180', 'MATH 184'].map((code) => ubc(code))),
        any(ubc('MATH 101'), ubc('MATH 103'), ubc('MATH 105'), ubc('MATH 121')),
      ),
    );
    expect(result.recommended).toEqual(['MATH 104, 110 or 184 recommended', 'MATH 105 recommended']);
  });

  it('parses a corequisite field with every course concurrent', () => {
    expect(parse('Either (a) STAT 200 or (b) BIOL 300.', 'ubc', 'BIOL', true).tree).toEqual(any(ubc('STAT 200', { concurrent: true }), ubc('BIOL 300', { concurrent: true })));
  });
});

describe('parsePrerequisites on Langara texts', () => {
  const P = (text: string) => `Prerequisite(s): ${text}`;
  it.each<[string, RequirementNode]>([
    ['A minimum "C" grade in LIBR 1111 and 1118.', all(lang('LIBR 1111', { minGrade: 'C' }), lang('LIBR 1118', { minGrade: 'C' }))],
    [
      'A minimum "C" grade in Precalculus 11, an "S" grade in MATH 1150, or MDT 70 or higher.',
      any(cond('high-school', 'Precalculus 11', { minGrade: 'C' }), lang('MATH 1150', { minGrade: 'S' }), cond('other', 'MDT 70 or higher', { value: 70 })),
    ],
    [
      'A minimum "C+" grade in MATH 1153 and 1253; or a minimum "C" grade in one of the following: MATH 1171, 1173 and 1183, or 1175. Prerequisites are valid for only three years.',
      any(
        all(lang('MATH 1153', { minGrade: 'C+' }), lang('MATH 1253', { minGrade: 'C+' })),
        lang('MATH 1171', { minGrade: 'C' }),
        all(lang('MATH 1173', { minGrade: 'C' }), lang('MATH 1183', { minGrade: 'C' })),
        lang('MATH 1175', { minGrade: 'C' }),
      ),
    ],
    [
      'A minimum "C" grade in two of: BIOL 2315, 2330, or 2415; and a minimum "C" grade in CPSC 1150 or 1155.',
      all(
        { type: 'any', count: 2, children: ['BIOL 2315', 'BIOL 2330', 'BIOL 2415'].map((code) => lang(code, { minGrade: 'C' })) },
        any(lang('CPSC 1150', { minGrade: 'C' }), lang('CPSC 1155', { minGrade: 'C' })),
      ),
    ],
    [
      'A minimum "B" grade in Physics 12; a minimum "C" grade in PHYS 1118; a score of 80 on the Physics Diagnostic Test; or permission of the department.',
      any(
        cond('high-school', 'Physics 12', { minGrade: 'B' }),
        lang('PHYS 1118', { minGrade: 'C' }),
        cond('other', 'a score of 80 on the Physics Diagnostic Test', { value: 80 }),
        cond('permission', 'permission of the department'),
      ),
    ],
    ['FMGT 3121 and FMGT 4510 (FMGT 4510 can be taken concurrently)', all(lang('FMGT 3121'), lang('FMGT 4510', { concurrent: true }))],
    [
      'A minimum "C" grade in CPSC 1280; and a minimum "C" grade in CPSC 1160 or 1181; or permission of the department. Prerequisites are valid for only three years.',
      any(all(lang('CPSC 1280', { minGrade: 'C' }), any(lang('CPSC 1160', { minGrade: 'C' }), lang('CPSC 1181', { minGrade: 'C' }))), cond('permission', 'permission of the department')),
    ],
    [
      'One of the following: LET 2; LETN 02; a minimum 50% in English First Peoples 12, English Studies 12, Literary Studies 12, or equivalent; IELTS 6.5 or equivalent.',
      any(
        cond('other', 'LET 2', { value: 2 }),
        cond('other', 'LETN 02', { value: 2 }),
        ...['English First Peoples 12', 'English Studies 12', 'Literary Studies 12'].map((text) => cond('high-school', text, { minGrade: '50%', orEquivalent: true })),
        cond('other', 'IELTS 6.5', { value: 6.5, orEquivalent: true }),
      ),
    ],
  ])('%s', (text, tree) => {
    expect(parse(P(text), 'langara').tree).toEqual(tree);
  });

  it('carries a leading grade across "; and" and keeps notes', () => {
    const result = parse(
      P('A minimum "C-" grade in one of the following: MATH 1271, 1273, 1274, or 1275; and MATH 1252 or 2362 (MATH 1252 or 2362 may be taken concurrently). Prerequisites are valid for only three years.'),
      'langara',
    );
    expect(result.tree).toEqual(
      all(
        any(...['MATH 1271', 'MATH 1273', 'MATH 1274', 'MATH 1275'].map((code) => lang(code, C))),
        any(lang('MATH 1252', { ...C, concurrent: true }), lang('MATH 2362', { ...C, concurrent: true })),
      ),
    );
    expect(result.notes).toEqual(['Prerequisites are valid for only three years']);
  });

  it('reads "None" as no prerequisites, with the rest put aside', () => {
    expect(parse(P('None. CSIS 1410 is recommended. Prerequisites are valid for only three years.'), 'langara')).toEqual({
      tree: all(),
      fullyParsed: true,
      unparsedClauses: [],
      recommended: ['CSIS 1410 is recommended'],
      notes: ['Prerequisites are valid for only three years'],
    });
    for (const empty of ['', '   ', 'None', 'Prerequisite(s): None.']) expect(parse(empty, 'langara').tree).toEqual(all());
  });
});

describe('parsePrerequisites on UVic rule text (hyphenated subjects)', () => {
  // UVic's Kuali rules as kualiText renders them from data/sample/uvic-catalog-2024 (ED-D402, ED-D415).
  const uvic = course('uvic');
  const admission = cond('program', 'admission to Professional Specialization Certificate in Special and Inclusive Education program.');
  it.each<[string, RequirementNode]>([
    ['Complete all of the following: (Complete all of: (ED-D 405), admission to Professional Specialization Certificate in Special and Inclusive Education program.)', all(uvic('ED-D 405'), admission)],
    [
      'Complete all of the following: (Complete all of: (ED-D 402, ED-D 405), admission to Professional Specialization Certificate in Special and Inclusive Education program.)',
      all(uvic('ED-D 402'), uvic('ED-D 405'), admission),
    ],
  ])('%s', (text, tree) => {
    expect(parse(text, 'uvic').tree).toEqual(tree);
  });

  it('reads a hyphenated code written without its space, and in the either-subject shorthands', () => {
    expect(parse('ED-D405 and ED-P 351.', 'uvic').tree).toEqual(all(uvic('ED-D 405'), uvic('ED-P 351')));
    expect(parse('ED-D/EDUC 420.', 'uvic').tree).toEqual(any(uvic('ED-D 420'), uvic('EDUC 420')));
  });
});

describe('parse results never fail silently', () => {
  it('reports clauses it cannot type as unparsed nodes', () => {
    const text =
      '(ENSC 380 or MSE 280) and ENSC 280, all with a minimum grade of C-. Students who completed STAT 270 prior to Spring 2015 may use STAT 270 instead of ENSC 280.';
    const result = parsePrerequisites(text, { institution: 'sfu' });
    expect(result.fullyParsed).toBe(false);
    expect(result.unparsedClauses).toEqual(['Students who completed STAT 270 prior to Spring 2015 may use STAT 270 instead of ENSC 280']);
    expect(result.tree).toEqual(
      any(all(any(sfu('ENSC 380', C), sfu('MSE 280', C)), sfu('ENSC 280', C)), { type: 'unparsed', text: result.unparsedClauses[0]! }),
    );
  });
});
