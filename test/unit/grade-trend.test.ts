import { describe, expect, it } from 'vitest';
import { gradeTrend } from '../../functions/course/grade-summary.js';

const row = (term: string, section: string, average: number | null, enrolled: number | null, median: number | null = null) => ({
  institution: 'ubc',
  code: 'CPSC 110',
  provenance: { source: 'ubc-grades', sourceRecordId: `${term} ${section}`, ingestedAt: '2026-01-01T00:00:00.000Z' },
  term,
  section,
  instructors: [],
  enrolled,
  average,
  median,
  bins: [],
  suppressed: average === null,
  format: 'v2' as const,
});

describe('grade trend: is this course getting harder', () => {
  it('averages per term (enrolment-weighted) and calls falling averages harder', () => {
    const trend = gradeTrend([
      row('2021-winter', '101', 76, 100, 78),
      row('2021-winter', '102', 72, 100, 74),
      row('2022-winter', '101', 72, 200, 73),
      row('2023-winter', '101', 70, 150, 71),
      row('2024-winter', '101', 67, 150, 68),
    ]);
    expect(trend.byTerm.map((t) => [t.term, t.average, t.median])).toEqual([
      ['2021-winter', 74, 74],
      ['2022-winter', 72, 73],
      ['2023-winter', 70, 71],
      ['2024-winter', 67, 68],
    ]);
    expect(trend.averageChangePerYear).toBe(-2.3);
    expect(trend.direction).toBe('harder');
    expect(trend.explanation).toMatch(/fell by 2.3 points a year/);
  });

  it('is steady under a point a year, and needs three unsuppressed terms', () => {
    expect(gradeTrend([row('2021-winter', '1', 70, 10), row('2022-winter', '1', 70.5, 10), row('2023-winter', '1', 70.2, 10)]).direction).toBe('steady');
    const thin = gradeTrend([row('2021-winter', '1', 70, 10), row('2022-winter', '1', null, null), row('2023-winter', '1', 60, 10)]);
    expect(thin.direction).toBe('insufficient-data');
    expect(thin.byTerm.find((t) => t.term === '2022-winter')?.average).toBeNull();
  });
});
