import { describe, expect, it } from 'vitest';
import { ALL_CONTRACTS, ALL_SURFACE } from '../../functions/all-contracts.js';
import { surfaceBreakingChanges, surfaceEntries } from '../../functions/mcp/contract/surface-entries.js';
import { defineView, viewProblems } from '../../functions/mcp/surface/view-contract.js';
import { viewNames } from '../../web/views/build.js';
import { byInstructor, byTerm, distributions, type GradesResult, type SectionGrades } from '../../web/views/lib/grade-groups.js';
import { courseCode, planBoard, type ResolveMatch, type ResolveResult } from '../../web/views/lib/plan-board.js';

const TOOL_NAMES = new Set(ALL_CONTRACTS.map((contract) => contract.name));

describe('view contracts', () => {
  it('every registered view has its page (web/views/<name>.tsx) and every page is registered', () => {
    expect((ALL_SURFACE.views ?? []).map((v) => v.name).sort()).toEqual(viewNames());
    expect(viewProblems(ALL_SURFACE.views ?? [], TOOL_NAMES)).toEqual([]);
  });

  it('flags a view of an unknown tool, a second view for one tool, and a name that cannot be a file', () => {
    const description = 'A view that breaks the rules, for the test of the rules.';
    const views = [
      defineView({ name: 'plan', domain: 'transfer', title: 'A', description, tools: ['transfer_resolve', 'transfer_nothing'] }),
      defineView({ name: 'Other_Plan', domain: 'transfer', title: 'B', description, tools: ['transfer_resolve'] }),
    ];
    expect(viewProblems(views, TOOL_NAMES)).toEqual([
      'view plan: no tool transfer_nothing',
      'view Other_Plan: name must be kebab-case',
      'view Other_Plan: transfer_resolve already has view plan (a tool names one view)',
    ]);
  });

  it('treats a removed or moved view, and a tool that stops naming its view, as breaking (hosts cache pages by URI)', () => {
    const before = surfaceEntries(ALL_SURFACE, 'tn_');
    expect(before.views?.length).toBeGreaterThan(0);
    const after = structuredClone(before);
    const [first, second, third] = after.views!;
    first!.uri = `${first!.uri}-v2`;
    second!.tools = [];
    after.views = [first!, second!];
    expect(surfaceBreakingChanges(before, after)).toEqual([
      `view ${first!.name}: URI changed`,
      `view ${second!.name}: ${before.views![1]!.tools[0]} no longer names it`,
      `view ${third!.name}: removed or renamed`,
    ]);
  });
});

const match = (ruleId: string, used: string[], extra: Partial<ResolveMatch> = {}): ResolveMatch => ({
  ruleId,
  usedCourses: used.map((c) => `lang:${c}`),
  missingCourses: [],
  targets: [{ kind: 'course', text: `SFU ${ruleId.toUpperCase()} (3)`, credits: 3 }],
  targetCredits: 3,
  condition: null,
  effectiveStart: '2020-01-01',
  effectiveEnd: null,
  evidence: [{ label: 'BCTG', url: 'https://example.org/rule' }],
  confidence: 0.9,
  ...extra,
});

describe('the transfer board', () => {
  const result: ResolveResult = {
    sourceInstitution: 'lang',
    targetInstitution: 'sfu',
    asOfDate: '2026-01-01',
    exactMatches: [match('a', ['CPSC 1150']), match('b', ['CPSC 1160', 'CPSC 1181'], { targetCredits: 6 }), match('c', ['CPSC 1160'])],
    partialMatches: [match('p', ['PHYS 1125'], { missingCourses: ['lang:PHYS 1225'], targetCredits: 8 })],
    conditionalMatches: [match('q', ['MATH 1171'], { conditions: [{ status: 'unknown', wouldHoldIf: 'the student is in Engineering' }] })],
    noCreditMatches: [match('n', ['ENGL 1100'], { targets: [{ kind: 'no-credit', text: 'No credit', credits: 0 }], targetCredits: 0 })],
    nearMisses: [{ course: 'lang:HIST 1100', reason: 'not-in-force', suggestions: [{ targets: ['SFU HIST 1XX (3)'], effectiveEnd: '2019-08-31' }] }],
    normalizedCourses: [{ input: 'GEOG1100', code: 'GEOG 1100' }],
    plan: {
      ruleIds: ['b', 'a'],
      totalCredits: 9,
      optimal: true,
      // Issue 29's additions: what the plan takes from a rule, and on what basis.
      rules: [
        { ruleId: 'b', consumes: ['CPSC 1160', 'CPSC 1181'], credits: 6 },
        { ruleId: 'a', consumes: ['CPSC 1150'], credits: 2, awards: ['SFU CMPT 104 (2)'], basis: 'partial' },
      ],
    },
  };
  const board = planBoard(result, ['CPSC 1150', 'cpsc1160', 'CPSC 1181', 'MATH 1171', 'PHYS 1125', 'ENGL 1100', 'HIST 1100', 'GEOG1100']);
  const lane = (id: string) => board.lanes.find((l) => l.id === id)!.cards;

  it('puts every given course on the board exactly once outside the plan, or in one planned rule', () => {
    expect(board.courses.sort()).toEqual(['CPSC 1150', 'CPSC 1160', 'CPSC 1181', 'ENGL 1100', 'GEOG 1100', 'HIST 1100', 'MATH 1171', 'PHYS 1125']);
    const onBoard = board.lanes.flatMap((l) => l.cards.flatMap((c) => c.courses));
    expect(onBoard.sort()).toEqual(board.courses.sort());
    expect(board.transferring.sort()).toEqual(['CPSC 1150', 'CPSC 1160', 'CPSC 1181']);
  });

  it('shows each planned rule with the credits the plan gives it, and what the plan takes from a rule that offers more', () => {
    expect(lane('plan').map((c) => [c.courses.join('+'), c.credits])).toEqual([
      ['CPSC 1160+CPSC 1181', 6],
      ['CPSC 1150', 2],
    ]);
    expect(lane('plan')[1]!.awards).toEqual([{ text: 'SFU CMPT 104 (2)', credits: null }]);
    expect(lane('plan')[1]!.notes).toEqual(['Partial award']);
    // Rule c's course is used by the plan's bundle: it is not offered again.
    expect(board.lanes.flatMap((l) => l.cards).some((c) => c.ruleId === 'c')).toBe(false);
  });

  it('says why each course outside the plan earns nothing yet', () => {
    const notes = (course: string) => board.lanes.flatMap((l) => l.cards).find((c) => c.courses.includes(course))!;
    expect(notes('MATH 1171')).toMatchObject({ status: 'conditional', notes: ['Counts if the student is in Engineering'] });
    expect(notes('PHYS 1125')).toMatchObject({ status: 'partial', notes: ['Also needs PHYS 1225'] });
    expect(notes('ENGL 1100')).toMatchObject({ status: 'no-credit' });
    expect(notes('HIST 1100').notes[0]).toContain('until 2019-08-31');
    expect(notes('GEOG 1100')).toMatchObject({ status: 'no-rule', notes: ['No rule in force on 2026-01-01'] });
  });

  it('reads a plan without per-rule detail (older results) from its rule ids', () => {
    const older = planBoard({ ...result, plan: { ruleIds: ['b'], totalCredits: 6, optimal: false } });
    expect(older.lanes[0]!.cards.map((c) => [c.courses, c.credits])).toEqual([[['CPSC 1160', 'CPSC 1181'], 6]]);
    expect(courseCode('langara:cpsc1160')).toBe('CPSC 1160');
  });
});

describe('grade groups', () => {
  const section = (term: string, name: string, instructors: string[], enrolled: number | null, average: number | null, counts: (number | null)[]): SectionGrades => ({
    term,
    section: name,
    instructors,
    enrolled,
    average,
    bins: counts.map((count, index) => ({ label: `b${index}`, count })),
    suppressed: counts.includes(null),
  });
  const result: GradesResult = {
    course: 'ubc:CPSC 110',
    sections: [
      section('2025W', '101', ['Ada'], 300, 80, [10, null, 5]),
      section('2025W', '102', ['Ada', 'Bo'], 100, 60, [4, null, 2]),
      section('2024W', '101', ['Bo'], 200, null, [null, null, null]),
      section('2024W', 'OVERALL', [], 500, 50, [1, 1, 1]),
    ],
    summary: { sections: 4, terms: ['2025W', '2024W'], enrolled: 600, weightedAverage: 75 },
    suppression: { anySuppressed: true, note: 'n' },
  };

  it('weights averages by enrolment and leaves suppressed sections and course-wide rows out', () => {
    expect(byTerm(result)).toEqual([
      { label: '2024W', average: null, sections: 1, enrolled: 200 },
      { label: '2025W', average: 75, sections: 2, enrolled: 400 },
    ]);
    expect(byInstructor(result)).toEqual([
      { label: 'Ada', average: 75, sections: 2, enrolled: 400 },
      { label: 'Bo', average: 60, sections: 2, enrolled: 300 },
    ]);
  });

  it('adds a term\'s sections into one distribution, a bin suppressed everywhere staying unknown', () => {
    const [term] = distributions(result);
    expect(term).toMatchObject({ label: '2025W, all 2 sections', partlySuppressed: true });
    expect(term!.bins.map((b) => b.count)).toEqual([14, null, 7]);
  });

  it('follows the tool\'s own trend when it sends one', () => {
    const trend = { byTerm: [{ term: 'T', sections: 3, enrolled: 9, average: 71.5, median: null }], averageChangePerYear: null, direction: 'insufficient-data', explanation: '' };
    expect(byTerm({ ...result, trend })).toEqual([{ label: 'T', average: 71.5, sections: 3, enrolled: 9 }]);
  });
});
