import { describe, expect, it } from 'vitest';
import { checkPrerequisites, type CompletedCourse } from '../../functions/course/prerequisites/check.js';
import { courseNodes } from '../../functions/course/prerequisites/nodes.js';
import { parsePrerequisites } from '../../functions/course/prerequisites/parser.js';
import { sfuTexts, ubcTexts, type SourceText } from '../../functions/course/prerequisites/sources.js';
import type { RequirementNode } from '../../functions/course/prerequisites/tree.js';
import { phrase, prerequisiteVerdict, VERDICT_LIMIT } from '../../functions/course/prerequisites/verdict.js';

// Real catalogue texts, parsed by the real parser: the verdict is read from what students meet.
const prerequisites = [...sfuTexts(), ...ubcTexts()].filter((t) => t.field === 'prerequisites');
const treeOf = (source: SourceText) => parsePrerequisites(source.text, { institution: source.source, defaultSubject: source.subject }).tree;
const textOf = (source: string, course: string) => prerequisites.find((t) => t.source === source && t.course === course)!;

function verdictFor(tree: RequirementNode, completed: CompletedCourse[]) {
  const check = checkPrerequisites(tree, completed);
  return { check, ...prerequisiteVerdict(tree, completed, check) };
}

/** Brackets inside brackets: "(… (…) …)". */
const nested = (text: string) => {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    if (depth > 1) return true;
    if (c === ')') depth--;
  }
  return false;
};

describe('the prerequisite verdict a student reads', () => {
  it('SFU CMPT 225 with MACM 101 done: one or two short sentences, and CMPT 125 among what is still needed', () => {
    const cmpt225 = treeOf(textOf('sfu', 'CMPT 225'));
    const result = verdictFor(cmpt225, [{ code: 'MACM 101' }]);
    expect(result.status).toBe('not-met');
    expect(result.verdict.length).toBeLessThanOrEqual(VERDICT_LIMIT);
    expect(nested(result.verdict)).toBe(false);
    expect(result.verdict.split(/(?<=\.)\s+/).length).toBeLessThanOrEqual(2);
    // The shortest way: one of the CMPT courses, since MACM 101 is done (its grade still to confirm).
    expect(result.stillNeeded).toHaveLength(1);
    expect(result.stillNeeded[0]!.courses).toContain('CMPT 125');
    expect(result.stillNeeded[0]!.courses).not.toContain('MACM 101');
    expect(result.gradesToConfirm).toEqual([{ course: 'MACM 101', minGrade: 'C-' }]);
    expect(result.verdict).toMatch(/CMPT 125/);
    expect(result.verdict).toMatch(/MACM 101 counts if your grade is at least C-/);
  });

  it('courses entered without grades are met if the grades reach the minimum, not "cannot be confirmed"', () => {
    const cmpt225 = treeOf(textOf('sfu', 'CMPT 225'));
    const result = verdictFor(cmpt225, [{ code: 'MACM 101' }, { code: 'CMPT 125' }]);
    expect(result.check.satisfied).toBe('unknown');
    expect(result.status).toBe('met-if-grades');
    expect(result.verdict).toMatch(/^Met if your grades are at least C- in (MACM 101 and CMPT 125|CMPT 125 and MACM 101)\.$/);
    expect(result.stillNeeded).toEqual([]);
    // With the grades given it is simply met, or not met when one is below the minimum.
    expect(verdictFor(cmpt225, [{ code: 'MACM 101', grade: 'B' }, { code: 'CMPT 125', grade: 'C' }]).status).toBe('met');
    const low = verdictFor(cmpt225, [{ code: 'MACM 101', grade: 'B' }, { code: 'CMPT 125', grade: 'D' }]);
    expect(low.status).toBe('not-met');
    expect(low.stillNeeded.flatMap((n) => n.courses)).toContain('CMPT 125');
  });

  it('a condition that decides it is named, with the courses needed otherwise', () => {
    const tree = parsePrerequisites('STAT 830 and STAT 850 or permission of instructor.', { institution: 'sfu' }).tree;
    const result = verdictFor(tree, [{ code: 'STAT 830' }]);
    expect(result.status).toBe('cannot-check');
    expect(result.verdict).toMatch(/permission of instructor/);
    expect(result.verdict).toMatch(/Otherwise you still need STAT 850/);
    expect(result.verdict.length).toBeLessThanOrEqual(VERDICT_LIMIT);
  });

  it('says so when there are no prerequisites', () => {
    expect(verdictFor({ type: 'all', children: [] }, []).verdict).toBe('This course has no prerequisites.');
  });

  it('phrases a requirement flat: alternatives in words, groups by semicolons, a shared minimum once', () => {
    const cmpt225 = treeOf(textOf('sfu', 'CMPT 225'));
    const text = phrase(cmpt225);
    expect(nested(text)).toBe(false);
    expect(text).not.toMatch(/[()]/);
    expect(text).toMatch(/, with C- or better$/);
    expect(text.match(/C- or better/g)).toHaveLength(1);
  });

  // The rule, over every SFU and UBC prerequisite text: whatever a student has done, the verdict is
  // short, flat, agrees with the check, and names only courses of the requirement as still needed.
  it('holds for every real prerequisite text and a range of records', () => {
    let checked = 0;
    for (const source of prerequisites) {
      const tree = treeOf(source);
      const codes = [...new Set(courseNodes(tree).map((c) => c.code))];
      if (!codes.length) continue;
      const records: CompletedCourse[][] = [[], codes.slice(0, 1).map((code) => ({ code })), codes.slice(0, 2).map((code) => ({ code, grade: 'B' })), codes.map((code) => ({ code })), codes.map((code) => ({ code, grade: 'D' }))];
      for (const completed of records) {
        const result = verdictFor(tree, completed);
        const where = `${source.source} ${source.course} with ${JSON.stringify(completed)}: ${result.verdict}`;
        expect(result.verdict.length, where).toBeLessThanOrEqual(VERDICT_LIMIT);
        expect(result.verdict.length, where).toBeGreaterThan(10);
        expect(nested(result.verdict), where).toBe(false);
        expect(result.verdict.split(/(?<=[.!?])\s+(?=[A-Z])/).length, where).toBeLessThanOrEqual(2);
        const expected = result.check.satisfied === true ? ['met'] : result.check.satisfied === false ? ['not-met'] : ['met-if-grades', 'cannot-check', 'not-met'];
        expect(expected, where).toContain(result.status);
        if (result.status === 'not-met') expect(result.stillNeeded.length, where).toBeGreaterThan(0);
        if (result.status === 'met-if-grades') expect(result.gradesToConfirm.length, where).toBeGreaterThan(0);
        for (const needed of result.stillNeeded) {
          for (const code of needed.courses) expect(codes, where).toContain(code);
          expect(nested(needed.text), where).toBe(false);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5_000);
  });
});
