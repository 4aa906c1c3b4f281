import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { awardedKeys, targetCourseInput } from '../../functions/transfer/award-forms.js';
import { typeCondition, type StudentFacts } from '../../functions/transfer/rule-text/conditions.js';
import { parseTransferDetail } from '../../functions/transfer/rule-text/detail-parser.js';
import { shippedCatalogueCredits } from '../../functions/transfer/rule-text/parse-coverage.js';
import { compareReceivers } from '../../functions/transfer/resolve/receiver-comparison.js';
import { resolveRules, type ResolveOptions } from '../../functions/transfer/resolve/resolve.js';
import { scanRules } from '../../functions/transfer/rule-text/rule-scan.js';
import { statedCredits } from '../../functions/transfer/resolve/sending-credits.js';
import { everyRuleFor, everyShippedTransferRule } from '../support/transfer-rules.js';

// Issue 29: every class of wording that limits, conditions or changes credit, each on a real row of the shipped files.

const facts = (over: Partial<StudentFacts> = {}): StudentFacts => ({ completedAtTarget: new Set(), grades: new Map(), ...over });
const resolve = (sender: string, receiver: string, codes: string[], asOf: string, student = facts(), options: ResolveOptions = {}) =>
  resolveRules(everyRuleFor(sender, receiver, codes), codes, asOf, student, options);
const planned = (resolution: ReturnType<typeof resolve>) => resolution.plan.rules.flatMap((r) => r.consumes).sort();

const dir = new URL('../../data/sample/bctransferguide/', import.meta.url);
const pdfRows: any[] = ['langara-transfers-2023-04.json', 'langara-transfers-2023-10.json'].flatMap((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')).courses);
const apiRows: any[] = JSON.parse(readFileSync(new URL('alexander-college-transfers-2025-06.json', dir), 'utf8'));
/** A published row, parsed with its own sender, receiver and course. */
function row(credit: string) {
  const pdf = pdfRows.find((r) => r.credit === credit);
  if (pdf) return parseTransferDetail(credit, { sender: pdf.source, receiver: pdf.destination, sourceCourse: { subject: pdf.subject, number: String(pdf.course_code) } });
  const api = apiRows.find((r) => `${r.Detail} || ${r.Condition}` === credit);
  expect(api, `not a shipped row: ${credit}`).toBeDefined();
  return parseTransferDetail(api.Detail, { sender: api.SndrInstitutionCode, receiver: api.RcvrInstitutionCode, sourceCourse: { subject: api.SndrSubjectCode, number: api.SndrCourseNumber, credits: api.SndrCourseCredit }, condition: api.Condition });
}

describe('sending-side exclusivity', () => {
  it('"Credit granted for only one of LANG ENGL 1127 or LANG ENGL 1128": the two earn 3 at SFU, not 6', () => {
    const both = resolve('langara', 'sfu', ['ENGL 1127', 'ENGL 1128'], '2023-01-01');
    expect(both.exact).toHaveLength(2);
    expect(both.plan.totalCredits).toBe(3);
    expect(both.plan.constraints).toEqual([expect.objectContaining({ type: 'one-of', side: 'sending', courses: ['ENGL 1127', 'ENGL 1128'], max: 1, limitedPlan: true })]);
  });

  it('"May receive credit for one only LANG ASIA 2250 (3) or LANG RELS 1210 (3)" and "only 1 of LANG STAT 1123, 1124, …": one of them counts', () => {
    expect(resolve('langara', 'tru', ['ASIA 2250', 'RELS 1210'], '2023-11-01').plan.totalCredits).toBe(3);
    const kpu = resolve('langara', 'kpu', ['STAT 1123', 'STAT 1124', 'STAT 1181'], '2020-01-01');
    expect(kpu.exact.length).toBe(3);
    expect(kpu.plan.rules).toHaveLength(1);
  });
});

describe('the same classes in wording the shipped rows do not use', () => {
  // Receivers held out of the shipped data word the same limits differently; these rows are built in their style.
  const douglas = (text: string) => parseTransferDetail(text, { sender: 'LANG', receiver: 'DOUG', sourceCourse: { subject: 'ENGL', number: '1128' } });
  it.each([
    ['DOUG ENGL 1XXX (3), Students with credit for LANG ENGL 1127 cannot receive credit for LANG ENGL 1128.', { type: 'one-of', side: 'sending', courses: ['ENGL 1128', 'ENGL 1127'] }],
    ['DOUG ENGL 1130 (3), Cannot take LANG ENGL 1127 for further credit.', { type: 'one-of', side: 'sending', courses: ['ENGL 1128', 'ENGL 1127'] }],
    ['DOUG ENGL 1130 (3), Students with credit in DOUG ENGL 1100 may not take DOUG ENGL 1130 for further credit.', { type: 'precludes', side: 'receiving', courses: ['ENGL 1100'] }],
    ['DOUG ENGL 1130 (3), Credit will be granted for only one of DOUG ENGL 1130, 1131 or 1132.', { type: 'one-of', side: 'receiving', courses: ['ENGL 1130', 'ENGL 1131', 'ENGL 1132'] }],
    ['DOUG ENGL 2XXX (3), Maximum of 6 credits for DOUG ENGL 2XXX.', { type: 'cap', maxCredits: 6 }],
    ['DOUG MATH 1XXX (3), Not open to students with credit in DOUG MATH 1100 or 1110.', { type: 'precludes', side: 'receiving', courses: ['MATH 1100', 'MATH 1110'] }],
  ])('%s', (text, constraint) => {
    const parsed = douglas(text);
    expect(parsed.constraints).toEqual([expect.objectContaining(constraint)]);
    expect(parsed.fullyParsed).toBe(true);
  });

  it.each([
    ['Minimum grade of C required.', { type: 'minimum-grade', grade: 'C' }],
    ['Requires a C- or better.', { type: 'minimum-grade', grade: 'C-' }],
    ['Credit only if taken with LANG CHEM 1120 or LANG CHEM 1121.', { type: 'with-course', courses: ['CHEM 1120', 'CHEM 1121'], courseMatch: 'any' }],
  ])('types "%s" so the student\'s facts can make it hold', (text, condition) => {
    expect(typeCondition(text, 'rule')).toMatchObject(condition);
  });

  it('"No credit if student has credit for …": fails when the student gave that course', () => {
    const rules = everyRuleFor('langara', 'sfu', ['ENGL 1128']).filter((r) => r.rawDetail.startsWith('SFU ENGL 1XX (3), W/B-Hum. Credit granted'));
    const reworded = rules.map((r) => ({ ...r, ruleId: `${r.ruleId}-x`, rawDetail: 'SFU ENGL 1XX (3), W/B-Hum. No credit if student has credit for LANG ENGL 1127.', conditionText: 'No credit if student has credit for LANG ENGL 1127.', constraints: undefined, parserVersion: undefined }));
    expect(resolveRules(reworded, ['ENGL 1128'], '2023-01-01').conditional).toHaveLength(1);
    expect(resolveRules(reworded, ['ENGL 1127', 'ENGL 1128'], '2023-01-01').conditional[0]!.conditions[0]!.status).toBe('fails');
  });
});

describe('receiving-side preclusions and caps', () => {
  it('"Credit is permitted for only one of SFU CMPT 125 or SFU CMPT 128": LANG CPSC 1181 + CPSC 1155 earn one of them (2010)', () => {
    const { plan, exact } = resolve('langara', 'sfu', ['CPSC 1155', 'CPSC 1181'], '2010-01-01');
    expect(exact.map((m) => m.rule.targets[0]!.code).sort()).toEqual(['CMPT 125', 'CMPT 128']);
    expect(plan.totalCredits).toBe(3);
    // A student who already has CMPT 128 at SFU gets neither.
    expect(resolve('langara', 'sfu', ['CPSC 1181'], '2010-01-01', facts({ completedAtTarget: new Set(['CMPT 128']) })).plan.totalCredits).toBe(0);
  });

  it('"Precludes credit for KPU ASTR … 3110": the bundle and LANG ASTR 3310 (KPU ASTR 3110) are not both awarded', () => {
    const { plan } = resolve('langara', 'kpu', ['ASTR 1101', 'ASTR 1102', 'ASTR 3310'], '2023-11-01');
    expect(plan.totalCredits).toBe(8);
    expect(plan.constraints.find((c) => c.type === 'precludes' && c.limitedPlan)!.courses).toEqual(['ASTR 1100', 'ASTR 3110', 'ASTR 3111']);
    // "Precludes credit for UBCV ARTH 251" with ARTH 251 already held: not given.
    expect(resolve('langara', 'ubc', ['AHIS 1115'], '2010-01-01', facts({ completedAtTarget: new Set(['ARTH 251']) })).plan.totalCredits).toBe(0);
  });

  it('"Maximum credit for LANG PSYC 2317, 2322 & 2323 is 6 credits" and "Maximum of two 100 level STATS transfers"', () => {
    const psyc = resolve('langara', 'ubc', ['PSYC 2317', 'PSYC 2322', 'PSYC 2323'], '2015-01-01');
    const capped = psyc.plan.rules.filter((r) => ['PSYC 2317', 'PSYC 2322', 'PSYC 2323'].some((c) => r.consumes.includes(c)));
    expect(capped.reduce((s, r) => s + r.credits, 0)).toBeLessThanOrEqual(6);
    const stats = resolve('langara', 'twu', ['STAT 1123', 'STAT 1181', 'STAT 1224', 'STAT 2281'], '2023-11-01');
    expect(stats.exact).toHaveLength(4);
    expect(planned(stats).filter((code) => /^STAT 1/.test(code))).toHaveLength(2);
    expect(planned(stats)).toContain('STAT 2281');
  });
});

describe('conditions the engine cannot read are conditional, with what would make them hold', () => {
  it('"No credit with CHEM 12 or any prior or concurrent CHEM credits": ALEX CHEM 100 + 101 + 102 → UBCO plans 6, not 9', () => {
    const all = resolve('alexander', 'ubco', ['CHEM 100', 'CHEM 101', 'CHEM 102'], '2025-06-01');
    expect(all.plan.totalCredits).toBe(6);
    expect(all.conditional[0]!.conditions[0]).toMatchObject({ type: 'no-credit-with', subjects: ['CHEM'], status: 'fails' });
    const alone = resolve('alexander', 'ubco', ['CHEM 100'], '2025-06-01');
    expect(alone.plan.totalCredits).toBe(0);
    expect(alone.conditional[0]!.conditions[0]).toMatchObject({ status: 'unknown', wouldHoldIf: expect.stringContaining('CHEM 12') });
  });

  it('program-only awards go only to the program: "for Biology and BCMB Majors only" (UNBC)', () => {
    const codes = ['BIOL 2315', 'BIOL 2415'];
    const unknown = resolve('langara', 'unbc', codes, '2020-06-01');
    const bundle = unknown.conditional.find((m) => m.rule.sourceCourses.length === 2)!;
    expect(bundle.conditions[0]).toMatchObject({ type: 'program', programs: ['Biology', 'BCMB'], status: 'unknown' });
    expect(unknown.plan.ruleIds).not.toContain(bundle.rule.ruleId);
    expect(resolve('langara', 'unbc', codes, '2020-06-01', facts({ program: 'BSc Biology' })).plan.ruleIds).toContain(bundle.rule.ruleId);
    expect(resolve('langara', 'unbc', codes, '2020-06-01', facts({ program: 'Computer Science' })).conditional.some((m) => m.conditions.some((c) => c.status === 'fails'))).toBe(true);
  });

  it('program-dependent alternatives: UCW "HRMT 301 for the BCom and BABC programs; BUSI 2XX for the AA program"', () => {
    expect(resolve('alexander', 'ucw', ['COMM 281'], '2025-06-01').plan.totalCredits).toBe(0);
    const aa = resolve('alexander', 'ucw', ['COMM 281'], '2025-06-01', facts({ program: 'Associate of Arts' }));
    expect(aa.plan.rules).toEqual([expect.objectContaining({ credits: 3, basis: 'conditional', awards: ['BUSI 2XX'] })]);
    const bcom = resolve('alexander', 'ucw', ['COMM 281'], '2025-06-01', facts({ program: 'BCom' }));
    expect(bcom.plan.rules).toEqual([expect.objectContaining({ credits: 3 })]);
    expect(bcom.plan.rules[0]!.basis).toBeUndefined();
    // "HIST 1XX (3); HIST 2XX (AA)": 3 credits whatever the program, which course depends on it.
    expect(resolve('alexander', 'ucw', ['HIST 101'], '2025-06-01').plan.rules).toEqual([expect.objectContaining({ credits: 3, basis: 'situational' })]);
  });
});

describe('a conditional award that holds is applied', () => {
  it('"If credit already received for SFU CMPT 102 …, credit will be SFU CMPT 104 (2)": LANG CPSC 1150 → SFU (2002)', () => {
    expect(resolve('langara', 'sfu', ['CPSC 1150'], '2002-01-01').plan.totalCredits).toBe(3);
    const held = resolve('langara', 'sfu', ['CPSC 1150'], '2002-01-01', facts({ completedAtTarget: new Set(['CMPT 102']) }));
    expect(held.plan.rules).toEqual([expect.objectContaining({ credits: 2, basis: 'conditional', awards: ['SFU CMPT 104 (2)'] })]);
    expect(held.exact[0]!.award).toMatchObject({ basis: 'conditional', credits: 2 });
  });

  it('"Students in non-BEng program may be granted UVIC STAT 260 (1.5)": an option for a student outside BEng', () => {
    const codes = ['STAT 2281'];
    const match = resolve('langara', 'uvic', codes, '2005-01-01', facts({ program: 'BSc' })).exact[0]!;
    expect(match.outcomes.find((o) => o.outcome.kind === 'conditional')).toMatchObject({ status: 'holds' });
    expect(resolve('langara', 'uvic', codes, '2005-01-01', facts({ program: 'BEng' })).exact[0]!.outcomes.find((o) => o.outcome.kind === 'conditional')).toMatchObject({ status: 'fails' });
  });
});

describe('repeatable courses and "any N of"', () => {
  it('"HIST 265 may be taken more than once, to max. credit of 9 units": LANG HIST 2234 + HIST 2243 → UVIC plans 3.0 units', () => {
    const { plan } = resolve('langara', 'uvic', ['HIST 2234', 'HIST 2243'], '2010-01-01');
    expect(plan.totalCredits).toBe(3);
    expect(plan.rules).toHaveLength(2);
  });

  it('"If any two of these courses are completed, UFV ENGL 108 (3) and UFV ENGL 1XX (3)": ALEX ENGL 101 + 102 → UFV', () => {
    const { plan, partial, exact } = resolve('alexander', 'ufv', ['ENGL 101', 'ENGL 102'], '2025-06-01');
    expect(partial.filter((m) => m.rule.sourceCourses.length === 3)).toEqual([]);
    expect(exact.find((m) => m.rule.sourceCourses.length === 3)!.award).toMatchObject({ basis: 'partial', credits: 6 });
    expect(plan.rules).toEqual([expect.objectContaining({ consumes: ['ENGL 101', 'ENGL 102'], credits: 6, basis: 'partial', awards: ['UFV ENGL 108 (3)', 'UFV ENGL 1XX (3)'] })]);
  });
});

describe('per-course completion dates', () => {
  it('LANG POLI 1250 completed 2010-12 → SFU is POL 231, not today\'s POL 2XX', () => {
    const today = resolve('langara', 'sfu', ['POLI 1250'], '2025-01-01');
    expect(today.exact.map((m) => m.rule.targets[0]!.text)).toEqual(['SFU POL 2XX (3)']);
    const then = resolve('langara', 'sfu', ['POLI 1250'], '2025-01-01', facts(), { completedOn: new Map([['POLI 1250', '2010-12-31']]) });
    expect(then.exact.map((m) => m.rule.targets[0]!.code)).toEqual(['POL 231']);
    expect(then.exact[0]!.checkedOn).toBe('2010-12-31');
  });

  it('a bundle resolves on the date its last course was completed', () => {
    const codes = ['CPSC 1160', 'CPSC 1181'];
    // The bundle's rule starts in January 2016.
    const after = new Map([['CPSC 1160', '2015-12-15'], ['CPSC 1181', '2016-04-30']]);
    const bundle = resolve('langara', 'sfu', codes, '2025-01-01', facts(), { completedOn: after }).exact.find((m) => m.usedCourses.length === 2);
    expect(bundle?.checkedOn).toBe('2016-04-30');
    const before = new Map([['CPSC 1160', '2014-12-15'], ['CPSC 1181', '2015-04-30']]);
    const earlier = resolve('langara', 'sfu', codes, '2025-01-01', facts(), { completedOn: before });
    expect(earlier.exact.some((m) => m.rule.ruleId === bundle!.rule.ruleId)).toBe(false);
    expect(earlier.exact.every((m) => m.checkedOn <= '2015-04-30')).toBe(true);
  });
});

describe('normalized credits in compare', () => {
  it('ranks UVic (units) on the common scale: LANG CPSC 1150, MATH 1171, ENGL 1127, PSYC 1115', () => {
    const codes = ['CPSC 1150', 'ENGL 1127', 'MATH 1171', 'PSYC 1115'];
    const rules = everyShippedTransferRule().filter((r) => r.senderInstitution === 'langara' && r.sourceCourses.some((c) => codes.includes(c.code)));
    const receivers = compareReceivers({ rules, codes, facts: facts(), asOfFor: () => '2023-11-01' });
    const uvic = receivers.find((r) => r.institution === 'uvic')!;
    const sfu = receivers.find((r) => r.institution === 'sfu')!;
    expect(uvic.coursesTransferred).toHaveLength(4);
    expect(uvic.creditScale).toMatchObject({ factor: 2, unit: 'units' });
    expect(uvic.normalizedCredits).toBe(uvic.plannedCredits * 2);
    expect(uvic.normalizedCredits).toBe(sfu.normalizedCredits);
    const order = receivers.map((r) => r.normalizedCredits);
    expect(order).toEqual([...order].sort((a, b) => b - a));
  });
});

describe('reverse lookup over every award form', () => {
  it('lists a rule under its alternatives, exemptions, 0-credit courses, awards under a condition and generic credit', () => {
    const rules = everyShippedTransferRule();
    const stat = rules.find((r) => r.rawDetail.startsWith('LANG STAT 1181 (3) & LANG STAT 1182 (1) = SFU BUS 232 (4) or SFU ECON 233 (4)'))!;
    expect(awardedKeys(stat).get('ECON 233')).toEqual(['alternative']);
    const cmpt = rules.find((r) => r.rawDetail.includes('Exemption SFU CMPT 127 (0)'))!;
    expect(awardedKeys(cmpt).get('CMPT 127')).toEqual(['exemption']);
    const asc = rules.find((r) => r.rawDetail.includes('SFU ASC 2XX (3)'))!;
    expect(awardedKeys(asc).get('ASC 2XX')).toEqual(expect.arrayContaining(['generic']));
    const cpsc = rules.find((r) => r.rawDetail.includes('credit will be SFU CMPT 104 (2)'))!;
    expect(awardedKeys(cpsc).get('CMPT 104')).toEqual(['conditional']);
    for (const [input, key] of [['ASC 2XX', 'ASC 2XX'], ['sfu:asc 2xx', 'ASC 2XX'], ['UBCV CPSC_V 1ST', 'CPSC 1st'], ['ECON 233', 'ECON 233']]) expect(targetCourseInput(input!, 'targetCourse')).toBe(key);
  });
});

describe('parse leaks found by scanning every rule', () => {
  it('keeps the code after "or" and the bare number of a list', () => {
    expect(row('TRU ENGL 2XXX (3), Precludes credit for TRU ENGL 2160 (3) or TRU ENGL 2260 (3)').preclusions).toEqual(['ENGL 2160', 'ENGL 2260']);
    const uvic = row('UVIC MATH 160B (1.5), Credit will be granted for only one of UVIC MATH 160B, 160. Not open for credit to students who have 3 or more units of credit in math courses numbered 100 or higher, excluding 120. Intended for prospective Elementary Education students.');
    expect(uvic.constraints).toEqual([expect.objectContaining({ type: 'one-of', side: 'receiving', courses: ['MATH 160B', 'MATH 160'] })]);
  });

  it('reads "X (3), if taken alone; Y (3) with one of …" as two outcomes, not 6 credits: alone at 2020 it plans BIOL 2nd (3)', () => {
    const parsed = row('UBCV BIOL 2nd (3), if taken alone; BIOL 201 (3) with one of LANG CHEM 2216, CHEM 2316 or CHEM 2416 Organic Chemistry + Lab.');
    expect(parsed.targets.map((t) => t.text)).toEqual(['UBCV BIOL 2nd (3)']);
    expect(parsed.conditionalAwards).toEqual([expect.objectContaining({ mode: 'instead', targets: [expect.objectContaining({ code: 'BIOL 201', credits: 3 })] })]);
    const rules = everyRuleFor('langara', 'ubc', ['BIOL 2315']).filter((r) => r.rawDetail.startsWith('UBCV BIOL 2nd (3), if taken alone'));
    const alone = resolveRules(rules, ['BIOL 2315'], '2020-01-01');
    expect(alone.plan.totalCredits).toBe(3);
    const withChem = resolveRules(rules, ['BIOL 2315', 'CHEM 2316'], '2020-01-01');
    expect(withChem.plan.rules).toEqual([expect.objectContaining({ credits: 3, awards: ['BIOL 201 (3)'] })]);
  });

  it('keeps the program of "Waive … for Civil Engineering students only", and designations after "&" in order', () => {
    expect(row('UNBC CHEM 1XX (4), Waive UNBC CHEM 100 (3) & CHEM 120 (1) for Civil Engineering students only.')).toMatchObject({
      exemptions: [],
      conditionalAwards: [{ mode: 'exemption', condition: 'for Civil Engineering students only', targets: [expect.objectContaining({ code: 'CHEM 100' }), expect.objectContaining({ code: 'CHEM 120' })] }],
    });
    expect(row('SFU PHYS 121 (3) & SFU PHYS 133 (1) || Q/B-Sci, Q.  Student may request SFU PHYS 141 (4) Q/B-Sci instead').targets.map((t) => t.designations)).toEqual([['Q', 'B-Sci'], ['Q']]);
  });

  it('never makes a course of another institution a target: a trailing sentence about the sender\'s courses stays prose', () => {
    // Built on the shape the held-out Douglas row had (no shipped row has it): the sentence after the award names Langara courses.
    const parsed = parseTransferDetail('DOUG ENGL 1100 (3) & DOUG ENGL 1130 (3). LANG ENGL 1127 (3) and LANG ENGL 1128 (3) are required.', {
      sender: 'LANG',
      receiver: 'DOUG',
      sourceCourse: { subject: 'ENGL', number: '1127' },
    });
    expect(parsed.targets.map((t) => t.code)).toEqual(['ENGL 1100', 'ENGL 1130']);
    expect(parsed.targets.every((t) => t.institution === 'douglas')).toBe(true);
  });

  it('finds none of the leak shapes in any shipped rule', () => {
    const { counts, examples } = scanRules(everyShippedTransferRule(), shippedCatalogueCredits());
    expect({ targetElsewhere: counts.targetElsewhere, droppedCodes: counts.droppedCodes, summedOutcomes: counts.summedOutcomes }, JSON.stringify(examples)).toEqual({ targetElsewhere: 0, droppedCodes: 0, summedOutcomes: 0 });
    // Limits nothing could type stay visible, and are conditional ("other"), never in the plan.
    expect(counts.otherConditions).toBeGreaterThanOrEqual(counts.limitingProseUntyped > 0 ? 1 : 0);
  });
});

describe('plausibility for rows without sending credits', () => {
  it('LANG EDAS 1111 (3 in the shipped catalogue) → CAPU SEA 109 (6) is flagged and left out of the plan', () => {
    const catalogue = shippedCatalogueCredits();
    const sendingCredits = new Map([['EDAS 1111', catalogue('langara', 'EDAS 1111')!]]);
    const { exact, plan } = resolve('langara', 'capilano', ['EDAS 1111'], '2023-11-01', facts(), { sendingCredits });
    expect(exact[0]!.warnings[0]).toMatch(/awards 6 credits for 3 credits sent \(sending credits from its catalogue or other rows\)/);
    expect(exact[0]!.confidenceFactors.plausibility).toBeLessThan(0.5);
    expect(plan.totalCredits).toBe(0);
    const { counts } = scanRules(everyShippedTransferRule(), catalogue);
    expect(counts.implausibleUnstated).toBeGreaterThan(0);
  });

  it('without a catalogue, takes what the sender\'s other rows state a course is worth', () => {
    const rules = everyShippedTransferRule().filter((r) => r.senderInstitution === 'langara');
    const stated = statedCredits(rules, 'langara');
    // "LANG STAT 1181 (3) & LANG STAT 1182 (1) = …" states both courses' credits.
    expect([stated.get('STAT 1181'), stated.get('STAT 1182')]).toEqual([3, 1]);
    expect(scanRules(rules).counts.implausibleUnstated).toBeGreaterThan(0);
  });
});
