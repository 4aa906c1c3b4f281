import { mergeInstructors, personBySpelling } from '../../../functions/course/instructor-names.js';

/**
 * A tn_course_grades result grouped the ways the view shows it: by term (the tool's own trend), by
 * instructor, and any section's or term's distribution. Averages are enrolment-weighted, as the
 * tool's summary is; sections the source suppressed are left out of an average, never counted as 0.
 */

interface Bin {
  label: string;
  count: number | null;
}

export interface SectionGrades {
  term: string;
  section: string;
  instructors: string[];
  enrolled: number | null;
  average: number | null;
  median?: number | null;
  bins: Bin[];
  suppressed: boolean;
}

export interface GradesResult {
  course: string;
  sections: SectionGrades[];
  summary: { sections: number; terms: string[]; enrolled: number; weightedAverage: number | null };
  suppression: { anySuppressed: boolean; note: string };
  trend?: {
    byTerm: { term: string; sections: number; enrolled: number; average: number | null; median: number | null }[];
    averageChangePerYear: number | null;
    direction: string;
    explanation: string;
  };
}

export interface Group {
  label: string;
  average: number | null;
  sections: number;
  enrolled: number;
}

/** Course-wide rows restate their sections: counted once, through the sections. */
const isSectionRow = (row: SectionGrades) => row.section !== 'OVERALL';

function weighted(rows: SectionGrades[]): { average: number | null; enrolled: number } {
  let total = 0;
  let students = 0;
  for (const row of rows) {
    if (row.average === null) continue;
    const weight = row.enrolled ?? 1;
    total += row.average * weight;
    students += weight;
  }
  return { average: students ? Math.round((total / students) * 100) / 100 : null, enrolled: rows.reduce((sum, row) => sum + (row.enrolled ?? 0), 0) };
}

/** Oldest term first: the tool's trend when it sent one, else the same weighting over the sections. */
export function byTerm(result: GradesResult): Group[] {
  if (result.trend) return result.trend.byTerm.map((t) => ({ label: t.term, average: t.average, sections: t.sections, enrolled: t.enrolled }));
  const terms = [...new Set(result.sections.map((s) => s.term))].reverse();
  return terms.map((term) => {
    const rows = result.sections.filter((s) => s.term === term && isSectionRow(s));
    return { label: term, sections: rows.length, ...weighted(rows) };
  });
}

/**
 * Highest average first; a section taught by two people counts for each, and one person is one row
 * however the sources spelled them ("Nick Bradley", "Nicholas Bradley"), as tn_course_instructor merges them.
 */
export function byInstructor(result: GradesResult): Group[] {
  const sections = result.sections.filter(isSectionRow);
  const personOf = personBySpelling(mergeInstructors(sections.flatMap((s) => s.instructors.map((name) => ({ name, term: s.term, together: s.instructors })))));
  const rows = new Map<string, SectionGrades[]>();
  for (const section of sections) {
    for (const person of new Set(section.instructors.map((name) => personOf.get(name)?.name ?? name))) rows.set(person, [...(rows.get(person) ?? []), section]);
  }
  return [...rows]
    .map(([label, sections]) => ({ label, sections: sections.length, ...weighted(sections) }))
    .sort((a, b) => (b.average ?? -1) - (a.average ?? -1) || a.label.localeCompare(b.label));
}

export interface Distribution {
  label: string;
  bins: Bin[];
  /** Some bins were suppressed in some sections: their counts are a floor. */
  partlySuppressed: boolean;
  average: number | null;
  enrolled: number;
}

/**
 * One distribution per term (its sections' bins added, where they share bin labels) and one per
 * section, newest first. A bin suppressed in every section stays null.
 */
export function distributions(result: GradesResult): Distribution[] {
  const sections = result.sections.filter((s) => isSectionRow(s) && s.bins.length);
  const out: Distribution[] = [];
  for (const term of [...new Set(sections.map((s) => s.term))]) {
    const rows = sections.filter((s) => s.term === term);
    const labels = rows[0]!.bins.map((b) => b.label).join('|');
    if (rows.length > 1 && rows.every((r) => r.bins.map((b) => b.label).join('|') === labels)) {
      const bins = rows[0]!.bins.map((bin, index) => {
        const counts = rows.map((r) => r.bins[index]!.count);
        return { label: bin.label, count: counts.every((c) => c === null) ? null : counts.reduce<number>((sum, c) => sum + (c ?? 0), 0) };
      });
      const partlySuppressed = rows.some((r) => r.bins.some((b) => b.count === null));
      out.push({ label: `${term}, all ${rows.length} sections`, bins, partlySuppressed, ...weighted(rows) });
    }
    for (const row of rows) {
      const who = row.instructors.length ? ` (${row.instructors.join(', ')})` : '';
      out.push({ label: `${term} ${row.section}${who}`, bins: row.bins, partlySuppressed: false, average: row.average, enrolled: row.enrolled ?? 0 });
    }
  }
  return out;
}
