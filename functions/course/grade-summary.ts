import type { GradeDistribution } from '../shared/catalog/catalog-model.js';

type GradeRow = Omit<GradeDistribution, 'kind'>;

const round = (value: number) => Math.round(value * 100) / 100;

/** Course-wide figures over section rows; OVERALL rows (v1 format) are left out so nothing counts twice. */
export function summarizeGrades(rows: GradeRow[]) {
  const sections = rows.filter((r) => r.section !== 'OVERALL');
  const weighted = sections.filter((r) => r.average !== null && r.enrolled !== null && r.enrolled > 0);
  const enrolled = weighted.reduce((sum, r) => sum + r.enrolled!, 0);
  const medians = sections.map((r) => r.median).filter((m): m is number => typeof m === 'number').sort((a, b) => a - b);
  const averages = sections.map((r) => r.average).filter((a): a is number => a !== null);
  return {
    sections: sections.length,
    terms: [...new Set(sections.map((r) => r.term))],
    enrolled,
    weightedAverage: enrolled ? round(weighted.reduce((sum, r) => sum + r.average! * r.enrolled!, 0) / enrolled) : null,
    medianOfSectionMedians: medians.length ? round(medians[Math.floor((medians.length - 1) / 2)]!) : null,
    lowestSectionAverage: averages.length ? round(Math.min(...averages)) : null,
    highestSectionAverage: averages.length ? round(Math.max(...averages)) : null,
  };
}
