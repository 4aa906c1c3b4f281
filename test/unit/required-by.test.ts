import { describe, expect, it } from 'vitest';
import { requiredByOf, requiredCodes, type RequisiteText } from '../../functions/catalog/required-by.js';
import { loadSfuOutlines, loadUbcCourses } from '../../functions/course/prerequisites/sources.js';

// The real SFU and UBC catalogues of the sample, as the index build hands them over.
const sfu: RequisiteText[] = loadSfuOutlines().map((o) => ({ institution: 'sfu', code: `${o.dept} ${o.number}`.toUpperCase(), title: null, prerequisitesText: o.prerequisites ?? null, corequisitesText: o.corequisites ?? null }));
const ubc: RequisiteText[] = loadUbcCourses().map((c) => ({ institution: 'ubc', code: c.code, title: null, prerequisitesText: c.prer ?? null, corequisitesText: c.crer ?? null }));
const graph = requiredByOf([...sfu, ...ubc]);

describe('"leads to": the courses whose requisites name a course', () => {
  it('SFU CMPT 225 leads to courses that require it, each naming it in its prerequisites', () => {
    const requirers = graph.get('sfu')!['CMPT 225']!.map(([code]) => code);
    expect(requirers.length).toBeGreaterThan(5);
    for (const code of requirers) {
      const text = sfu.find((c) => c.code === code)!.prerequisitesText ?? '';
      const corequisite = sfu.find((c) => c.code === code)!.corequisitesText ?? '';
      expect(requiredCodes(`${text}\n${corequisite}`), code).toContain('CMPT 225');
    }
  });

  it('finds every course whose prerequisite text names the code outright, and no course of another institution', () => {
    for (const [institution, courses] of [['sfu', sfu], ['ubc', ubc]] as const) {
      const known = new Set(courses.map((c) => c.code));
      for (const course of courses.slice(0, 400)) {
        for (const code of requiredCodes(course.prerequisitesText ?? '')) {
          if (code === course.code || !known.has(code)) continue;
          expect(graph.get(institution)![code]!.map(([c]) => c), `${institution} ${course.code} → ${code}`).toContain(course.code);
        }
      }
    }
    expect(Object.keys(graph.get('ubc')!).every((code) => ubc.some((c) => c.code === code))).toBe(true);
  });

  it('reads a bare number with the subject before it, and skips what is only recommended or excluded', () => {
    expect(requiredCodes('BISC 101 and 102, both with a minimum grade of C-. Recommended: BISC 204.')).toEqual(['BISC 101', 'BISC 102']);
    expect(requiredCodes('CPSC 210; any 300-level CPSC course and 120 credits. Students with credit for CPSC 310 may not take this course.')).toEqual(['CPSC 210']);
    expect(requiredCodes('MATH 150, 151 or 154; or MATH 157 with a grade of at least B. CGPA of 2.50.')).toEqual(['MATH 150', 'MATH 151', 'MATH 154', 'MATH 157']);
  });
});
