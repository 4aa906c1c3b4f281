import { describe, expect, it } from 'vitest';
import { parseBctgApiRecords, parseLangaraPdfRows } from '../../functions/transfer/ingest/bctg-adapters.js';
import { resolveRules } from '../../functions/transfer/resolve/resolve.js';

const AT = '2026-01-01T00:00:00.000Z';
const row = (credit: string, extra: Record<string, unknown> = {}) => ({ subject: 'STAT', course_code: 1181, source: 'LANG', destination: 'SFU', credit, effective_start: 'Sep/04', effective_end: 'Aug/20', ...extra });

describe('rule identity from normalised content', () => {
  it('is one rule however the published text is spaced or glued, and no false conflict', () => {
    const a = "LANG STAT 1181 (3) & LANG STAT 1182 (1) = SFU STAT 201 (3) or SFU STAT 203 (3) or SFU STAT 205 (3), & SFU ACMA 1XX (1) or BUS 232 (4) Student's choice";
    const b = "LANG STAT 1181 (3) & LANG STAT 1182 (1) = SFU STAT 201(3) or SFU STAT 203 (3) or SFUSTAT 205 (3), & SFU ACMA 1XX(1) or BUS 232 (4) Student's choice";
    const parsed = parseLangaraPdfRows(JSON.stringify({ courses: [row(a), row(b, { course_code: 1182 })] }), AT);
    expect(parsed.rules).toHaveLength(1);
    expect(parsed.duplicatesMerged).toBe(1);
    const resolution = resolveRules(parsed.rules, ['STAT 1181', 'STAT 1182'], '2010-01-01');
    expect(resolution.conflicts).toEqual([]);
    // The whole-award alternative is worth what the bundle is: 4, never 3 + 4.
    expect(resolution.exact[0]!.targetCredits).toBe(4);
    expect(resolution.exact[0]!.rule.alternativeAwards.map((set) => set.map((t) => t.credits))).toEqual([[4]]);
  });

  it('tells apart versions that differ in what they send (a 3- and a 4-credit ALEX BIOL 222)', () => {
    const record = (id: number, credits: number) => ({
      Id: id, SndrInstitutionCode: 'ALEX', SndrSubjectCode: 'BIOL', SndrCourseNumber: '222', SndrCourseCredit: credits,
      RcvrInstitutionCode: 'UVIC', Detail: 'UVIC BIOC 2XX (1.5)', Condition: null, StartDate: '20230901', EndDate: null,
    });
    const parsed = parseBctgApiRecords(JSON.stringify([record(386910, 3), record(375047, 4)]), AT);
    expect(parsed.rejected).toEqual([]);
    expect(parsed.rules.map((r) => r.sourceCourses[0]!.credits).sort()).toEqual([3, 4]);
    expect(new Set(parsed.rules.map((r) => r.ruleId)).size).toBe(2);
  });

  it('stays sensitive to what is awarded and to the start date', () => {
    const base = parseLangaraPdfRows(JSON.stringify({ courses: [row('SFU STAT 201 (3)')] }), AT).rules[0]!;
    const other = parseLangaraPdfRows(JSON.stringify({ courses: [row('SFU STAT 203 (3)')] }), AT).rules[0]!;
    const later = parseLangaraPdfRows(JSON.stringify({ courses: [row('SFU STAT 201 (3)', { effective_start: 'Sep/05' })] }), AT).rules[0]!;
    expect(new Set([base.ruleId, other.ruleId, later.ruleId]).size).toBe(3);
  });
});

describe('parse fixes of issue 12', () => {
  const one = (credit: string) => parseLangaraPdfRows(JSON.stringify({ courses: [row(credit, { subject: 'PHYS', course_code: 1225 })] }), AT).rules[0]!;

  it('a designation closing a bundle of one subject\'s courses covers each of them', () => {
    const rule = one('SFU PHYS 121 (3) & SFU PHYS 133 (1), Q/B-Sci');
    expect(rule.targets.map((t) => [t.code, t.designations])).toEqual([['PHYS 121', ['Q', 'B-Sci']], ['PHYS 133', ['Q', 'B-Sci']]]);
    expect(one('SFU CMPT 125 (3) & SFU CMPT 1XX (3), Q').targets.map((t) => t.designations)).toEqual([undefined, ['Q']]);
  });

  it('"only one of A, B or C" precludes the others of an awarded one, and nothing when none is awarded', () => {
    expect(one('SFU MATH 151 (3), Credit is permitted for only one of SFU MATH 151, SFU MATH 154 or SFU MATH 157.').preclusions).toEqual(['MATH 154', 'MATH 157']);
    expect(one('SFU MATH 152 (3), Credit is permitted for only one of SFU MATH 151, SFU MATH 154 or SFU MATH 157.').preclusions).toEqual([]);
  });

  it('is fully parsed only when no condition is left as free text', () => {
    expect(one('SFU PHYS 121 (3), Not for credit in Science.').fullyParsed).toBe(true);
    expect(one('SFU BISC 1XX (3), No credit for BIOL major.').fullyParsed).toBe(true);
    const prose = one('SFU ENSC 1XX (3), Instructor must be licensed to practice Engineering in Canada');
    expect(prose.fullyParsed).toBe(false);
    expect(prose.untypedConditions).toEqual(['Instructor must be licensed to practice Engineering in Canada']);
    expect(prose.unparsedFragments).toEqual([]);
  });
});
