import type { GradeDistribution } from '../catalog/catalog-model.js';
import { termOrder } from '../catalog/terms.js';

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

const SEASON_FRACTION: Record<string, number> = { spring: 0, summer: 0.33, fall: 0.67, winter: 0.67 };
/** Minimum terms, and the change in average per year, for a trend to count as harder or easier. */
const MIN_TERMS = 3;
const STEADY_POINTS_PER_YEAR = 1;

/** Per-term figures, oldest first, and whether the course's grades are falling ("getting harder"). */
export function gradeTrend(rows: GradeRow[]) {
  const byTerm = new Map<string, GradeRow[]>();
  for (const row of rows) byTerm.set(row.term, [...(byTerm.get(row.term) ?? []), row]);
  const terms = [...byTerm.entries()]
    .map(([term, termRows]) => {
      const summary = summarizeGrades(termRows);
      return { term, sections: summary.sections, enrolled: summary.enrolled, average: summary.weightedAverage, median: summary.medianOfSectionMedians };
    })
    .filter((t) => t.sections > 0)
    .sort((a, b) => termOrder(a.term) - termOrder(b.term));
  // Least squares of the term's enrolment-weighted average against time in years.
  const points = terms
    .filter((t) => t.average !== null)
    .map((t) => {
      const [year, season] = t.term.split('-') as [string, string];
      return { x: Number(year) + (SEASON_FRACTION[season] ?? 0), y: t.average! };
    });
  let slope: number | null = null;
  if (points.length >= 2) {
    const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
    const my = points.reduce((s, p) => s + p.y, 0) / points.length;
    const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
    slope = sxx > 0 ? round(points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx) : null;
  }
  const direction: 'harder' | 'easier' | 'steady' | 'insufficient-data' =
    slope === null || points.length < MIN_TERMS
      ? 'insufficient-data'
      : slope <= -STEADY_POINTS_PER_YEAR
        ? 'harder'
        : slope >= STEADY_POINTS_PER_YEAR
          ? 'easier'
          : 'steady';
  const span = points.length ? `${terms[0]!.term} to ${terms[terms.length - 1]!.term}` : 'no term';
  const explanation =
    direction === 'insufficient-data'
      ? `Only ${points.length} term(s) with an unsuppressed average (${span}); at least ${MIN_TERMS} are needed to call a trend.`
      : `Over ${points.length} terms (${span}) the enrolment-weighted average ${slope! < 0 ? 'fell' : 'rose'} by ${Math.abs(slope!)} points a year` +
        (direction === 'steady' ? `, under the ${STEADY_POINTS_PER_YEAR}-point threshold: steady.` : direction === 'harder' ? ': grades are falling (harder).' : ': grades are rising (easier).');
  return { byTerm: terms, averageChangePerYear: slope, direction, explanation };
}
