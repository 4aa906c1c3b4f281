import { describe, expect, it } from 'vitest';
import { normalizeCourseCode, parseCourseRef } from '../../functions/catalog/course-ref.js';
import { findInstitution, institutionId } from '../../functions/catalog/institutions.js';

describe('course references', () => {
  it.each([
    ['sfu:CMPT 120', 'sfu:CMPT 120'],
    ['SFU:cmpt120', 'sfu:CMPT 120'],
    ['  sfu :  CMPT    120 ', 'sfu:CMPT 120'],
    ['UBCV:CPSC 110', 'ubc:CPSC 110'],
    ['LANG:CPSC1160', 'langara:CPSC 1160'],
    ['langara:cpsc-1181', 'langara:CPSC 1181'],
    ['ubco:MATH 100A', 'ubco:MATH 100A'],
    ['uvic:ED-D101', 'uvic:ED-D 101'],
    ['uvic:ed-p 250', 'uvic:ED-P 250'],
    ['sfu:CMPT-225', 'sfu:CMPT 225'],
  ])('normalises %s to %s', (input, expected) => {
    expect(parseCourseRef(input)?.ref).toBe(expected);
  });

  it('splits subject and number and uses a default institution when none is given', () => {
    expect(parseCourseRef('cmpt 225', 'sfu')).toMatchObject({ institution: 'sfu', subject: 'CMPT', number: '225', code: 'CMPT 225' });
    expect(parseCourseRef('cmpt 225')).toBeUndefined();
  });

  it.each(['sfu:', 'sfu:CMPT', 'sfu:120', ':CMPT 120', 'sfu:C 120', 'sfu:CMPT 12'])('rejects %s', (input) => {
    expect(parseCourseRef(input)).toBeUndefined();
  });

  it('normalises bare codes', () => {
    expect(normalizeCourseCode('math100')).toBe('MATH 100');
    expect(normalizeCourseCode('not a code')).toBeUndefined();
  });
});

describe('institution aliases', () => {
  it.each([
    ['sfu', 'sfu'],
    ['SFU', 'sfu'],
    ['UBCV', 'ubc'],
    ['ubc', 'ubc'],
    ['UBCO', 'ubco'],
    ['LANG', 'langara'],
    ['DOUG', 'douglas'],
    ['ALEX', 'alexander'],
    ['uvic', 'uvic'],
    ['CAPU', 'capilano'],
  ])('%s → %s', (alias, id) => {
    expect(findInstitution(alias)?.id).toBe(id);
  });

  it('slugifies institutions it does not know so new data still works', () => {
    expect(findInstitution('NEWU')).toBeUndefined();
    expect(institutionId('New U College')).toBe('new-u-college');
  });
});
