import type { Section } from '../../catalog/catalog-model.js';
import { isTimed } from './week.js';

/** The dates a term's classes run between, and where they were read from. */
export interface TermSpan {
  start: string;
  end: string;
  /** "sections": the dated meetings of the sections; "season": the season's months, when no meeting is dated. */
  from: 'sections' | 'season';
}

const SEASON_MONTHS: Record<string, [string, string, number]> = {
  spring: ['01-01', '04-30', 0],
  summer: ['05-01', '08-31', 0],
  fall: ['09-01', '12-31', 0],
  // UBC's Winter Session runs September to April of the next year.
  winter: ['09-01', '04-30', 1],
};

/**
 * Undated weekly meetings run all term: the term is the span of the dated weekly meetings of the same
 * sections (SFU dates every meeting; Langara's schedule dates its semester), or else its season.
 */
export function termSpan(term: string, sections: Section[]): TermSpan {
  const dated = sections.flatMap((s) => s.meetings).filter((m) => isTimed(m) && m.startDate && m.endDate && m.startDate !== m.endDate);
  if (dated.length) {
    return { start: dated.map((m) => m.startDate!).sort()[0]!, end: dated.map((m) => m.endDate!).sort().at(-1)!, from: 'sections' };
  }
  const [year, season] = term.split('-') as [string, string];
  const [start, end, endYearOffset] = SEASON_MONTHS[season] ?? SEASON_MONTHS.fall!;
  return { start: `${year}-${start}`, end: `${Number(year) + endYearOffset}-${end}`, from: 'season' };
}
