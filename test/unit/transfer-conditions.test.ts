import { describe, expect, it } from 'vitest';
import { isApplicabilityNote, typeCondition, type StudentFacts } from '../../functions/transfer/rule-text/conditions.js';
import { evaluateCondition } from '../../functions/transfer/resolve/condition-status.js';

const facts = (over: Partial<StudentFacts> = {}): StudentFacts => ({ completedAtTarget: new Set(), grades: new Map(), ...over });

/** The condition phrases of the shipped BC Transfer Guide rows, typed. */
describe('typed transfer conditions', () => {
  it.each([
    ['if SFU POL 231 already obtained.', { type: 'prior-credit', courses: ['POL 231'] }],
    ['if student already has credit for SFU ASC 202.', { type: 'prior-credit', courses: ['ASC 202'] }],
    ['If credit already received for SFU CMPT 102 or SFU CMPT 103, credit will be SFU CMPT 104 (2).', { type: 'prior-credit', courses: ['CMPT 102', 'CMPT 103'] }],
    ['Transfer credit awarded ONLY if student is being admitted into Mechanical Engineering. Otherwise no credit is allowed.', { type: 'program', program: 'Mechanical Engineering' }],
    ['for Management students only.', { type: 'program', program: 'Management' }],
    ['Must have C or better to transfer.', { type: 'minimum-grade', grade: 'C' }],
    ['if completed within the last 5 years.', { type: 'recency', years: 5 }],
    ['if taken alone.', { type: 'taken-alone' }],
    // On a bundle's row: the course alone earns nothing, so the bundle's credit needs the courses together.
    ['No credit if LANG MATH 1273 is taken by itself.', { type: 'taken-together', count: 2 }],
    ['If any two of these courses are completed, UFV ENGL 108 (3) and UFV ENGL 1XX (3) will be awarded.', { type: 'taken-together', count: 2 }],
    ['if Organic Chemistry taken as a co-requisite', { type: 'other' }],
  ])('%s', (text, expected) => {
    expect(typeCondition(text, 'rule')).toMatchObject({ text: text.trim(), appliesTo: 'rule', ...expected });
  });

  it('leaves statements about how credit may be used as notes, not conditions', () => {
    for (const note of ['May be taken more than once for credit in different topics with permission of the department.', 'Does not meet the English/Communication requirement for any program.', 'Must have C- or better to use as a prerequisites', 'Prerequisite for UVIC MATH 330A.']) {
      expect(typeCondition(note, 'rule'), note).toBeUndefined();
      expect(isApplicabilityNote(note), note).toBe(true);
    }
    expect(isApplicabilityNote('No credit for BIOL major.')).toBe(false);
  });

  it('types where credit does not count as a restriction that fails only for a student in that program', () => {
    for (const [text, program] of [['Not for credit in Science.', 'Science'], ['Cannot be used for credit in B.Com program.', 'B.Com'], ['No credit for BIOL major.', 'BIOL']] as const) {
      const restriction = typeCondition(text, 'rule')!;
      expect(restriction, text).toMatchObject({ type: 'not-for-program', program });
      expect(evaluateCondition(restriction, facts(), [])).toBe('holds');
    }
    const science = typeCondition('Not for credit in the Faculty of Science or Commerce.', 'rule')!;
    expect(science.programs).toEqual(['Science', 'Commerce']);
    expect(evaluateCondition(science, facts({ program: 'Bachelor of Commerce' }), [])).toBe('fails');
    expect(evaluateCondition(science, facts({ program: 'BA in History' }), [])).toBe('holds');
  });

  it('holds only on what the caller said, and fails on what contradicts it', () => {
    const prior = typeCondition('if SFU POL 231 already obtained.', 'rule')!;
    expect(evaluateCondition(prior, facts(), ['POLI 1250'])).toBe('unknown');
    expect(evaluateCondition(prior, facts({ completedAtTarget: new Set(['POL 231']) }), ['POLI 1250'])).toBe('holds');
    const program = typeCondition('for Management students only.', 'rule')!;
    expect(evaluateCondition(program, facts({ program: 'Faculty of Management' }), [])).toBe('holds');
    expect(evaluateCondition(program, facts({ program: 'Science' }), [])).toBe('fails');
    const grade = typeCondition('Must have C or better to transfer.', 'rule')!;
    expect(evaluateCondition(grade, facts({ grades: new Map([['CPSC 1150', 'B+']]) }), ['CPSC 1150'])).toBe('holds');
    expect(evaluateCondition(grade, facts({ grades: new Map([['CPSC 1150', 'C-']]) }), ['CPSC 1150'])).toBe('fails');
    expect(evaluateCondition(grade, facts(), ['CPSC 1150'])).toBe('unknown');
  });
});
