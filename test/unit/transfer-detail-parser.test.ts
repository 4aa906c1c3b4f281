import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTransferDetail, type DetailContext } from '../../functions/transfer/rule-text/detail-parser.js';
import { PARSER_VERSION, ParsedRuleSchema, type ParsedRule, type TransferTarget } from '../../functions/transfer/rule-model.js';

// Every expression below is a real BCTG string from data/sample/bctransferguide; the test looks the
// row up and parses it with that row's own sender, receiver and sending course.

const dir = new URL('../../data/sample/bctransferguide/', import.meta.url);
const langRows: any[] = JSON.parse(readFileSync(new URL('langara-transfers-2023-04.json', dir), 'utf8')).courses;
const alexRows: any[] = JSON.parse(readFileSync(new URL('alexander-college-transfers-2025-06.json', dir), 'utf8'));

const langContext = (r: any): DetailContext => ({ sender: r.source, receiver: r.destination, sourceCourse: { subject: r.subject, number: String(r.course_code) } });
const alexContext = (r: any): DetailContext => ({
  sender: r.SndrInstitutionCode,
  receiver: r.RcvrInstitutionCode,
  sourceCourse: { subject: r.SndrSubjectCode, number: r.SndrCourseNumber, credits: r.SndrCourseCredit },
  condition: r.Condition,
});

function lang(credit: string): ParsedRule {
  const row = langRows.find((r) => r.credit === credit);
  expect(row, `not in the Langara file: ${credit}`).toBeDefined();
  return parseTransferDetail(credit, langContext(row));
}
function alex(detail: string, condition: string | null = null): ParsedRule {
  const row = alexRows.find((r) => r.Detail === detail && r.Condition === condition);
  expect(row, `not in the Alexander file: ${detail} / ${condition}`).toBeDefined();
  return parseTransferDetail(detail, alexContext(row));
}

const course = (institution: string, code: string, credits: number, text: string, extra: Partial<TransferTarget> = {}): TransferTarget => {
  const [subject, number] = code.split(' ');
  return { kind: 'course', institution, subject, number, code, credits, text, ...extra };
};
const generic = (institution: string, subject: string, pattern: string, level: number | undefined, credits: number, text: string, extra: Partial<TransferTarget> = {}): TransferTarget => ({
  kind: 'generic', institution, subject, pattern, ...(level === undefined ? {} : { level }), credits, text, ...extra,
});
const exemption = (institution: string, code: string, text: string) => course(institution, code, 0, text, { kind: 'exemption' });
const q = (...designations: string[]) => ({ designations });
const clean = { exemptions: [], preclusions: [], conditionText: null, kind: 'credit', fullyParsed: true, unparsedFragments: [], untypedConditions: [], alternativeAwards: [], parserVersion: PARSER_VERSION };

describe('parseTransferDetail: single targets, credits and designations', () => {
  it.each<[string, TransferTarget[]]>([
    ['SFU CMPT 225 (3), Q', [course('sfu', 'CMPT 225', 3, 'SFU CMPT 225 (3), Q', q('Q'))]],
    ['SFU CMPT 1XX (3), Q/B-Sci', [generic('sfu', 'CMPT', '1XX', 1, 3, 'SFU CMPT 1XX (3), Q/B-Sci', q('Q', 'B-Sci'))]],
    ['SFU PHIL 105 (3), Q/B-Soc/Sci', [course('sfu', 'PHIL 105', 3, 'SFU PHIL 105 (3), Q/B-Soc/Sci', q('Q', 'B-Soc', 'B-Sci'))]],
    ['SFU ARCH 131 (3), B - Soc/Sci', [course('sfu', 'ARCH 131', 3, 'SFU ARCH 131 (3), B - Soc/Sci', q('B-Soc', 'B-Sci'))]],
    ['SFU INDG 101 (3), B-Hum/Soc', [course('sfu', 'INDG 101', 3, 'SFU INDG 101 (3), B-Hum/Soc', q('B-Hum', 'B-Soc'))]],
    ['UBCV ARTS 1st (3)', [generic('ubc', 'ARTS', '1st', 1, 3, 'UBCV ARTS 1st (3)')]],
    ['UBCO MGMT 4th (3)', [generic('ubco', 'MGMT', '4th', 4, 3, 'UBCO MGMT 4th (3)')]],
    ['UVIC BIOL 2XX (1.5) or UVIC ES 2XX (1.5)', [generic('uvic', 'BIOL', '2XX', 2, 1.5, 'UVIC BIOL 2XX (1.5)', { alternatives: [[generic('uvic', 'ES', '2XX', 2, 1.5, 'UVIC ES 2XX (1.5)')]] })]],
    ['SFU PHIL XX1 (3), Q', [generic('sfu', 'PHIL', 'XX1', undefined, 3, 'SFU PHIL XX1 (3), Q', q('Q'))]],
    ['SFU POL 1XX (3), Field C', [generic('sfu', 'POL', '1XX', 1, 3, 'SFU POL 1XX (3)', { note: 'Field C' })]],
    ['SFU GEOG 1XX (3), B-Sci, Physical A', [generic('sfu', 'GEOG', '1XX', 1, 3, 'SFU GEOG 1XX (3), B-Sci', { ...q('B-Sci'), note: 'Physical A' })]],
    ['SFU SA 1XX (3), SOCI B-Soc', [generic('sfu', 'SA', '1XX', 1, 3, 'SFU SA 1XX (3)', { ...q('B-Soc'), note: 'SOCI' })]],
  ])('%s', (text, targets) => {
    expect(lang(text)).toMatchObject({ ...clean, targets });
    expect(lang(text).targets).toEqual(targets);
  });

  it('UBC campus suffixes, "100 lev", 1XXX and UBC elective credit (API rows)', () => {
    expect(alex('UBCO MATH_O 125 (3) or UBCO MATH_O 126 (3)').targets).toEqual([
      course('ubco', 'MATH 125', 3, 'UBCO MATH_O 125 (3)', { alternatives: [[course('ubco', 'MATH 126', 3, 'UBCO MATH_O 126 (3)')]] }),
    ]);
    expect(alex('EC ENGL 100 lev (3)').targets).toEqual([generic('emily-carr', 'ENGL', '100 lev', 1, 3, 'EC ENGL 100 lev (3)')]);
    expect(alex('KPU BIOL 1XXX (4)').targets).toEqual([generic('kpu', 'BIOL', '1XXX', 1, 4, 'KPU BIOL 1XXX (4)')]);
    expect(alex('UBCV ELEV_V 1st (3)').targets).toEqual([{ ...generic('ubc', 'ELEV', '1st', 1, 3, 'UBCV ELEV_V 1st (3)'), kind: 'elective' }]);
  });

  it('no credit and individual assessment', () => {
    for (const text of ['No credit', 'No Credit']) expect(lang(text)).toMatchObject({ ...clean, kind: 'no-credit', targets: [{ kind: 'no-credit', credits: null, text }] });
    for (const text of ['Individual assessment', 'Individual Assessment', 'Credit to be determined when student applies.']) {
      expect(lang(text)).toMatchObject({ kind: 'individual-assessment', fullyParsed: true, targets: [{ kind: 'individual-assessment', credits: null }] });
    }
    // SOURCE.md documents "No credit, OL"; the samples do not contain it.
    const ol = parseTransferDetail('No credit, OL', { sender: 'LANG', receiver: 'SFU', sourceCourse: { subject: 'CPSC', number: '1150' } });
    expect(ol).toMatchObject({ kind: 'no-credit', fullyParsed: true, targets: [{ kind: 'no-credit', text: 'No credit', note: 'OL' }] });
  });
});

describe('parseTransferDetail: several targets, exemptions and bundles', () => {
  it('the documented bundle, as it appears in the data', () => {
    const rule = lang('LANG CPSC 1160 (3) & LANG CPSC 1181 (3) = SFU CMPT 125 (3) & SFU CMPT 1XX (3), Q, Exemption SFU CMPT 127 (0)');
    expect(rule).toEqual({
      ...clean,
      sourceCourses: [
        { institution: 'langara', code: 'CPSC 1160', credits: 3 },
        { institution: 'langara', code: 'CPSC 1181', credits: 3 },
      ],
      targets: [
        course('sfu', 'CMPT 125', 3, 'SFU CMPT 125 (3)'),
        generic('sfu', 'CMPT', '1XX', 1, 3, 'SFU CMPT 1XX (3), Q', q('Q')),
        exemption('sfu', 'CMPT 127', 'SFU CMPT 127 (0)'),
      ],
      exemptions: ['CMPT 127'],
    });
  });

  it.each<[string, TransferTarget[]]>([
    ['SFU CMPT 125 (3), Q & SFU CMPT 127 (0) Exemption', [course('sfu', 'CMPT 125', 3, 'SFU CMPT 125 (3), Q', q('Q')), exemption('sfu', 'CMPT 127', 'SFU CMPT 127 (0) Exemption')]],
    ['SFU CMPT 125 (3), Q & Exemption SFU CMPT 127 (0)', [course('sfu', 'CMPT 125', 3, 'SFU CMPT 125 (3), Q', q('Q')), exemption('sfu', 'CMPT 127', 'Exemption SFU CMPT 127 (0)')]],
    ['SFU ARCH 2XX (3) & SFU ARCH 344 (0), Exemption', [generic('sfu', 'ARCH', '2XX', 2, 3, 'SFU ARCH 2XX (3)'), exemption('sfu', 'ARCH 344', 'SFU ARCH 344 (0), Exemption')]],
  ])('%s', (text, targets) => {
    expect(lang(text)).toMatchObject({ ...clean, targets, exemptions: [targets[1]!.code] });
  });

  it('source-side choices: "Any 2 of", "one of", "or"', () => {
    const any2 = lang('Any 2 of LANG ENGL 2236 (3) or LANG ENGL 2246 (3) or LANG ENGL 2256 (3) or LANG ENGL 2266 (3) = UBCV CRWR 200 (3) & UBCV CRWR 2nd (3)');
    expect(any2.sourceChoice).toEqual({ count: 2, from: ['ENGL 2236', 'ENGL 2246', 'ENGL 2256', 'ENGL 2266'] });
    expect(any2.targets.map((t) => t.code ?? t.pattern)).toEqual(['CRWR 200', '2nd']);
    const oneOf = lang('LANG FINA 1120 (3) & one of LANG FINA 1140 (3), LANG FINA 1130 (3), LANG FINA 1170 (3), LANG FINA 1160 (3) = UBCV VISA 180 (3) & UBCV VISA 183 (3)');
    expect(oneOf.sourceCourses).toHaveLength(5);
    expect(oneOf.sourceChoice).toEqual({ count: 1, from: ['FINA 1140', 'FINA 1130', 'FINA 1170', 'FINA 1160'] });
    expect(lang('LANG NUTR 1100 (3) or LANG NUTR 2500 (3) = UVIC EPHE 155 (1.5)').sourceChoice).toEqual({ count: 1, from: ['NUTR 1100', 'NUTR 2500'] });
  });

  it('typos in the PDF text: glued codes, "=SFU", "262(3)", "SFUSTAT", swapped credits', () => {
    const glued = lang('LANG FINA 1120 (3) & LANG FINA 1220 (3) & LANG FINA2120 (3) & LANG FINA 2220 (3) =SFU CA 1XX (2) & SFU CA 262(3) & SFU CA 362 (3), Visual ArtsStudio');
    expect(glued.sourceCourses.map((c) => c.code)).toEqual(['FINA 1120', 'FINA 1220', 'FINA 2120', 'FINA 2220']);
    expect(glued.targets.map((t) => [t.code ?? t.pattern, t.credits, t.note])).toEqual([['1XX', 2, undefined], ['CA 262', 3, undefined], ['CA 362', 3, 'Visual ArtsStudio']]);
    const stat = lang("LANG STAT 1181 (3) & LANG STAT 1182 (1) = SFU STAT 201(3) or SFU STAT 203 (3) or SFUSTAT 205 (3), & SFU ACMA 1XX(1) or BUS 232 (4) Student's choice");
    expect(stat.fullyParsed).toBe(true);
    expect(stat.targets[0]!.alternatives!.map((set) => set[0]!.code)).toEqual(['STAT 203', 'STAT 205']);
    // "… or BUS 232 (4)" is worth the whole award (3 + 1): it replaces the whole award, not ACMA 1XX alone (which would total 7).
    expect(stat.targets[1]).toMatchObject({ pattern: '1XX', credits: 1 });
    expect(stat.targets[1]!.alternatives).toBeUndefined();
    expect(stat.alternativeAwards).toEqual([[expect.objectContaining({ institution: 'sfu', code: 'BUS 232', credits: 4 })]]);
    expect(lang('UVIC GEOG 213 (1.5), or UVIC GEOG (1.5) 1XX').targets[0]!.alternatives).toEqual([[generic('uvic', 'GEOG', '1XX', 1, 1.5, 'UVIC GEOG (1.5) 1XX')]]);
  });

  it('API rows: the Condition continues the expression', () => {
    expect(alex('SFU CHEM 283 (3)', 'Q & SFU CHEM 286 (1) - Q')).toMatchObject({
      ...clean,
      targets: [course('sfu', 'CHEM 283', 3, 'SFU CHEM 283 (3), Q', q('Q')), course('sfu', 'CHEM 286', 1, 'SFU CHEM 286 (1) - Q', q('Q'))],
    });
    expect(alex('SFU BUS 2XX (0)', '& SFU BUS 232 (3) Q').targets).toEqual([generic('sfu', 'BUS', '2XX', 2, 0, 'SFU BUS 2XX (0)'), course('sfu', 'BUS 232', 3, 'SFU BUS 232 (3) Q', q('Q'))]);
    expect(alex('VIU ECON 2nd (3)', 'Exemption VIU ECON 305 (0)')).toMatchObject({ ...clean, exemptions: ['ECON 305'], targets: [{ pattern: '2nd' }, exemption('viu', 'ECON 305', 'VIU ECON 305 (0)')] });
    expect(alex('SFU PHYS 100 (0)', 'Exemption')).toMatchObject({ ...clean, exemptions: ['PHYS 100'], targets: [{ kind: 'exemption', code: 'PHYS 100' }] });
    expect(alex('TWU CHEM 100 (3)', '*Lab').targets).toEqual([course('twu', 'CHEM 100', 3, 'TWU CHEM 100 (3)', { note: '*Lab' })]);
  });
});

describe('parseTransferDetail: alternatives', () => {
  it('"or" binds tighter than "&", a trailing designation covers every alternative', () => {
    const stat = lang('SFU STAT 201 (3) or SFU STAT 203 (3) or SFU STAT 205 (3), Q');
    expect(stat.targets).toEqual([
      course('sfu', 'STAT 201', 3, 'SFU STAT 201 (3)', { ...q('Q'), alternatives: [[course('sfu', 'STAT 203', 3, 'SFU STAT 203 (3)', q('Q'))], [course('sfu', 'STAT 205', 3, 'SFU STAT 205 (3), Q', q('Q'))]] }),
    ]);
    expect(alex('FDU BIOL 1001 (3) or FDU BIOL 1011 (3)').targets[0]!.alternatives).toEqual([[course('fdu', 'BIOL 1011', 3, 'FDU BIOL 1011 (3)')]]);
  });

  it.each<[string, TransferTarget[][]]>([
    ['SFU CMPT 365 (3), Student may request SFU IAT 235 (3) instead.', [[course('sfu', 'IAT 235', 3, 'SFU IAT 235 (3)')]]],
    ['UBCV CPSC 1st (3), or APSC 160 (3) for Engineering students', [[course('ubc', 'APSC 160', 3, 'APSC 160 (3) for Engineering students', { note: 'for Engineering students' })]]],
    [
      'SFU GSWS 1XX (3), B-Hum/Soc, or SFU CA 1ARTHIS (3) - B- Hum/Soc or SFU CA 1ARTCULT (3) - B-Hum/Soc',
      [[generic('sfu', 'CA', '1ARTHIS', 1, 3, 'SFU CA 1ARTHIS (3) - B- Hum/Soc', q('B-Hum', 'B-Soc'))], [generic('sfu', 'CA', '1ARTCULT', 1, 3, 'SFU CA 1ARTCULT (3) - B-Hum/Soc', q('B-Hum', 'B-Soc'))]],
    ],
    [
      'SFU CA 137 (3), B-Hum or SFU CA 1FLMHIS (3) - B-Hum if student already has credit for SFU CA 137.',
      [[generic('sfu', 'CA', '1FLMHIS', 1, 3, 'SFU CA 1FLMHIS (3) - B-Hum if student already has credit for SFU CA 137.', { ...q('B-Hum'), note: 'if student already has credit for SFU CA 137.' })]],
    ],
  ])('%s', (text, alternatives) => {
    const rule = lang(text);
    expect(rule).toMatchObject({ ...clean, targets: [{ alternatives }] });
    expect(rule.targets[0]!.alternatives).toEqual(alternatives);
  });

  it('whole-award alternatives when several targets are awarded together', () => {
    expect(lang('SFU CMPT 1XX (1) & SFU ENSC 204 (1), Student may request SFU CMPT 1XX (2) instead.').alternativeAwards).toEqual([[generic('sfu', 'CMPT', '1XX', 1, 2, 'SFU CMPT 1XX (2)')]]);
    const kin = lang('LANG BIOL 1190 (3) & LANG BIOL 1191 (3) = UBCO BIOL 131 (3) & UBCO BIOL 133 (3), or UBCO HMKN 190 (3) & UBCO HMKN 191 (3)');
    expect(kin.targets.map((t) => t.code)).toEqual(['BIOL 131', 'BIOL 133']);
    expect(kin.alternativeAwards.map((set) => set.map((t) => t.code))).toEqual([['HMKN 190', 'HMKN 191']]);
    const phys = alex('SFU PHYS 121 (3) & SFU PHYS 133 (1)', 'Q/B-Sci, Q.  Student may request SFU PHYS 141 (4) Q/B-Sci instead');
    expect(phys).toMatchObject({ ...clean, alternativeAwards: [[course('sfu', 'PHYS 141', 4, 'SFU PHYS 141 (4) Q/B-Sci', q('Q', 'B-Sci'))]] });
    // "Q/B-Sci, Q" after a bundle of two: one list per course, in order.
    expect(phys.targets.map((t) => t.designations)).toEqual([['Q', 'B-Sci'], ['Q']]);
  });

  it('scoped designations: "for both", "for PHIL 100 only"', () => {
    expect(lang('LANG BIOL 1115 (4) & LANG BIOL 1215 (4) = SFU BISC 101 (3) & SFU BISC 102 (3), B-Sci for both').targets.map((t) => t.designations)).toEqual([['B-Sci'], ['B-Sci']]);
    expect(lang('LANG PHIL 2201 (3) & LANG PHIL 2203 (3) = SFU PHIL 100 (3) & SFU PHIL 203 (3), B-Hum for PHIL 100 only.').targets.map((t) => t.designations)).toEqual([['B-Hum'], undefined]);
  });
});

describe('parseTransferDetail: conditions, exemptions and preclusions', () => {
  it.each<[string, Partial<ParsedRule>]>([
    ['UVIC HSTR 200 (1.5), May be taken more than once for credit in different topics with permission of the department.', { conditionText: 'May be taken more than once for credit in different topics with permission of the department.' }],
    ['LANG CPSC 1150 (3) & LANG CPSC 1181 (3) = UBCV CPSC 1st (3) & UBCV CPSC 2nd (3), exempt UBCV CPSC 110', { exemptions: ['CPSC 110'], conditionText: 'exempt UBCV CPSC 110' }],
    ['LANG BIOL 1115 (4) & LANG BIOL 1215 (4) = UBCV BIOL 1st (8), Exempt UBCV BIOL 111, UBCV BIOL 121, UBCV BIOL 140.', { exemptions: ['BIOL 111', 'BIOL 121', 'BIOL 140'], conditionText: 'Exempt UBCV BIOL 111, UBCV BIOL 121, UBCV BIOL 140.' }],
    ['UBCO HIST 1st (3), Excludes UBCO HIST 214/224.', { preclusions: ['HIST 214', 'HIST 224'], conditionText: 'Excludes UBCO HIST 214/224.' }],
    ['UBCV MICB 2nd (4), Precludes credit for UBCV BIOL 112, UBCV MICB 201, UBCV MICB 203.', { preclusions: ['BIOL 112', 'MICB 201', 'MICB 203'], conditionText: 'Precludes credit for UBCV BIOL 112, UBCV MICB 201, UBCV MICB 203.' }],
    ['SFU MATH 151 (3), Credit is permitted for only one of SFU MATH 151, SFU MATH 154 or SFU MATH 157."', { preclusions: ['MATH 154', 'MATH 157'], conditionText: 'Credit is permitted for only one of SFU MATH 151, SFU MATH 154 or SFU MATH 157.' }],
    // Codes without an institution in an "only one of" list are Langara's (FINA is not an SFU subject).
    ['SFU CA 1XX (3), Students may receive credit for only one of FINA 2150 or FINA 2250., Art and Culture', { preclusions: [], conditionText: 'Students may receive credit for only one of FINA 2150 or FINA 2250.' }],
    ['UBCV CHEM 1st (3), Not for credit in Science. Satisfies Lab. Science requirements for admission to B.Ed. (Elem) when taken with LANG CHEM 117.', { conditionText: 'Not for credit in Science. Satisfies Lab. Science requirements for admission to B.Ed. (Elem) when taken with LANG CHEM 117.' }],
    ['UVIC COM 100 (1.5), Cannot be used for credit in B.Com program.', { conditionText: 'Cannot be used for credit in B.Com program.' }],
    ['UBCV BIOL 201 (3), if Organic Chemistry taken as a co-requisite; or UBCV BIOL 2nd (3) if taken alone.', { conditionText: 'if Organic Chemistry taken as a co-requisite' }],
  ])('%s', (text, expected) => {
    const rule = lang(text);
    expect(rule).toMatchObject({ ...clean, ...expected });
    expect(rule.targets.every((t) => !t.note || !t.note.includes('Lab'))).toBe(true);
  });

  it('API conditions: exemptions with bare numbers, waivers, preclusions', () => {
    expect(alex('ALEX BIOL 101 (4) & ALEX BIOL 102 (4) = UBCV BIOL_V 1st (8)', 'Exempt from UBCV BIOL_V 111, 121, 180')).toMatchObject({
      ...clean,
      sourceCourses: [{ institution: 'alexander', code: 'BIOL 101', credits: 4 }, { institution: 'alexander', code: 'BIOL 102', credits: 4 }],
      exemptions: ['BIOL 111', 'BIOL 121', 'BIOL 180'],
      conditionText: 'Exempt from UBCV BIOL_V 111, 121, 180',
    });
    expect(alex('UNBC CPSC 1XX (3)', 'Waive UNBC CPSC 231 (4).')).toMatchObject({ ...clean, exemptions: ['CPSC 231'], conditionText: 'Waive UNBC CPSC 231 (4).' });
    expect(alex('TRU ECON 2XXX (3)', 'Precludes credit for TRU ECON 3550 (3)')).toMatchObject({ ...clean, preclusions: ['ECON 3550'], conditionText: 'Precludes credit for TRU ECON 3550 (3)' });
    expect(alex('VIU BIOL 1st (4)', 'or GEOG 101 (3)').targets[0]!.alternatives).toEqual([[course('viu', 'GEOG 101', 3, 'GEOG 101 (3)')]]);
  });

  it('credit awarded inside prose is typed: an award under a condition, and what part of a bundle earns', () => {
    const cmpt = lang('SFU CMPT 101 (3), If credit already received for SFU CMPT 102 or SFU CMPT 103, credit will be SFU CMPT 104 (2).');
    expect(cmpt).toMatchObject({
      fullyParsed: true,
      targets: [course('sfu', 'CMPT 101', 3, 'SFU CMPT 101 (3)')],
      conditionalAwards: [{ targets: [course('sfu', 'CMPT 104', 2, 'SFU CMPT 104 (2)')], condition: 'If credit already received for SFU CMPT 102 or SFU CMPT 103', mode: 'instead' }],
    });
    const ufv = alex('ALEX ENGL 101 (3) & ALEX ENGL 102 (3) & ALEX ENGL 103 (3) = UFV ENGL 108 (3) & UFV ENGL 1XX (6)', 'If any two of these courses are completed, UFV ENGL 108 (3) and UFV ENGL 1XX (3) will be awarded.');
    expect(ufv).toMatchObject({ fullyParsed: true, unparsedFragments: [] });
    expect(ufv.partialAwards).toEqual([{ count: 2, targets: [course('ufv', 'ENGL 108', 3, 'UFV ENGL 108 (3)'), generic('ufv', 'ENGL', '1XX', 1, 3, 'UFV ENGL 1XX (3)')], text: 'If any two of these courses are completed, UFV ENGL 108 (3) and UFV ENGL 1XX (3) will be awarded.' }]);
  });

  it('text the grammar cannot read becomes an unparsed target, never an exception', () => {
    const ctx: DetailContext = { sender: 'LANG', receiver: 'SFU', sourceCourse: { subject: 'CPSC', number: '1150' } };
    for (const text of ['', '=', '(3)', 'Some new wording nobody has seen', '& & or ='.repeat(50)]) {
      const rule = parseTransferDetail(text, ctx);
      expect(ParsedRuleSchema.safeParse(rule).success).toBe(true);
      expect(rule.fullyParsed).toBe(false);
      expect(rule.unparsedFragments.length).toBeGreaterThan(0);
    }
  });
});

describe('parseTransferDetail on every row', () => {
  const all = [
    ...langRows.map((r) => ({ raw: r.credit as string, rule: parseTransferDetail(r.credit, langContext(r)) })),
    ...alexRows.map((r) => ({ raw: `${r.Detail}, ${r.Condition ?? ''}`, rule: parseTransferDetail(r.Detail, alexContext(r)) })),
  ];

  it('gives a schema-valid result whose texts are verbatim slices of the input', () => {
    expect(all).toHaveLength(3761 + 1745);
    for (const { raw, rule } of all) {
      expect(ParsedRuleSchema.safeParse(rule).success).toBe(true);
      for (const t of [...rule.targets, ...rule.targets.flatMap((t) => t.alternatives?.flat() ?? []), ...rule.alternativeAwards.flat()]) expect(raw).toContain(t.text);
      if (rule.conditionText) expect(raw).toContain(rule.conditionText);
      for (const fragment of rule.unparsedFragments) expect(raw).toContain(fragment);
      expect(rule.fullyParsed).toBe(rule.unparsedFragments.length === 0 && (rule.untypedConditions ?? []).length === 0);
      for (const sentence of rule.untypedConditions ?? []) expect(raw).toContain(sentence);
    }
  });
});
