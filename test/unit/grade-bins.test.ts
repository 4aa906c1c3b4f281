import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { binRange, distinctBins } from '../../functions/course/grade-bins.js';
import { ubcGradesAdapter } from '../../functions/ingest/adapters/ubc-grades.js';
import type { GradeDistribution } from '../../functions/catalog/catalog-model.js';
import { readCsvTable, rowCells } from '../../functions/catalog/ingestion/csv.js';

const PAIR = 'data/sample/ubc-grades/pair-reports/UBC-2015W-CPSC.csv';
const V2 = 'data/sample/ubc-grades/tableau-dashboard-v2/UBCV-2024W-CPSC.csv';
const rowsOf = (file: string) => ubcGradesAdapter.parse(readFileSync(file, 'utf8'), { ingestedAt: '2026-11-26T00:00:00.000Z', origin: file }).records as GradeDistribution[];

/** Each bin's range once, end to end: no student can fall in two bins. */
function expectTiling(bins: { label: string }[], where: string) {
  const ranges = bins.map((b) => binRange(b.label)!).sort((a, b) => a[0] - b[0]);
  expect(ranges[0]![0], where).toBe(0);
  for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0], where).toBe(ranges[i - 1]![1]);
  expect(ranges.at(-1)![1], where).toBe(101);
}

describe('grade bins without double counting', () => {
  it('PAIR 2015: "<50" restates 0-9 … 40-49, so it is dropped and every student counts once (the bins add up to Pass + Fail)', () => {
    const table = readCsvTable(readFileSync(PAIR, 'utf8'))!;
    const passFail = new Map<string, number>();
    for (const row of table.rows) {
      const cells = rowCells(table, row) as Record<string, string>;
      if (cells.Pass?.trim() && cells.Fail?.trim()) passFail.set(`${cells.Course!.trim()}${cells.Detail!.trim()} ${cells.Section!.trim()}`, Number(cells.Pass) + Number(cells.Fail));
    }
    let checked = 0;
    for (const row of rowsOf(PAIR)) {
      expect(row.bins.map((b) => b.label)).toContain('<50');
      const bins = distinctBins(row.bins);
      const where = `${row.code} ${row.section}`;
      expectTiling(bins, where);
      if (bins.some((b) => b.count === null)) continue;
      expect(bins.map((b) => b.label)).not.toContain('<50');
      const total = passFail.get(`${row.code.split(' ')[1]} ${row.section}`);
      if (total === undefined) continue;
      expect(bins.reduce((sum, b) => sum + b.count!, 0), where).toBe(total);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('keeps the wider bin when the narrower ones were suppressed, and the narrower ones (with their gaps) when both were', () => {
    const row = rowsOf(PAIR).find((r) => r.bins.every((b) => b.count !== null))!;
    const partly = row.bins.map((b) => (b.label === '10-19' ? { ...b, count: null } : b));
    expect(distinctBins(partly).map((b) => b.label)).toEqual(row.bins.map((b) => b.label).filter((label) => !/^(0-9|10-19|20-29|30-39|40-49)$/.test(label)));
    const both = partly.map((b) => (b.label === '<50' ? { ...b, count: null } : b));
    const kept = distinctBins(both);
    expect(kept.map((b) => b.label)).not.toContain('<50');
    expect(kept.find((b) => b.label === '10-19')!.count).toBeNull();
    expectTiling(kept, 'both suppressed');
  });

  it('leaves bins that never overlap as they are (the dashboards since 2021)', () => {
    for (const row of rowsOf(V2)) {
      expect(distinctBins(row.bins)).toEqual(row.bins);
      expectTiling(row.bins, `${row.code} ${row.section}`);
    }
  });
});
