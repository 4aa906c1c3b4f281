import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import type { instructorContract } from '../../../functions/course/contracts/instructor.js';
import { useState } from 'preact/hooks';
import { byTerm, distributions, type GradesResult } from '../../views/lib/grade-groups.js';
import { BarTable } from '../components/bar-table.js';
import { GradeChart } from '../components/grade-chart.js';
import { Panel } from '../components/status.js';
import { useTool } from '../use-tool.js';

type Instructor = ToolOutput<typeof instructorContract>['instructors'][number];

/** Averages to one decimal: the sources publish to two, and a tenth is what a student compares. */
const grade = (value: number) => value.toFixed(1);
/** "Winter 2024-25", "Summer 2023": short enough for a table cell on a phone. */
export function termName(term: string): string {
  const [year, season] = term.split('-') as [string, string | undefined];
  if (!season || !/^\d{4}$/.test(year)) return term;
  if (season === 'winter') return `Winter ${year}-${String(Number(year) + 1).slice(2)}`;
  return `${season.charAt(0).toUpperCase()}${season.slice(1)} ${year}`;
}
const plural = (count: number, word: string) => `${count.toLocaleString('en-CA')} ${word}${count === 1 ? '' : 's'}`;

/**
 * Grades the way a student compares them: the average of every term (oldest first) and of every
 * instructor (one row per person, however the sources spelled them), then any term's or section's
 * distribution. Each figure sits in a table cell beside its term or name; the bars only draw them.
 */
export function GradesPanel({ course }: { course: string }) {
  const grades = useTool<GradesResult & { summary: GradesResult['summary'] & { enrolled: number } }>('tn_course_grades', { course });
  const instructors = useTool<ToolOutput<typeof instructorContract>>('tn_course_instructor', { course });
  const result = grades.data;
  return (
    <Panel title="Grades" id="grades" loading={grades.loading && !result} error={grades.error}>
      {result && result.sections.length === 0 && <p class="muted">No grade distributions are published for this course.</p>}
      {result && result.sections.length > 0 && (
        <>
          <p>
            {result.summary.weightedAverage === null ? 'No average was published' : <>Average <strong>{grade(result.summary.weightedAverage)}</strong></>} over{' '}
            {plural(result.summary.terms.length, 'term')} and {plural(result.summary.sections, 'section')} ({plural(result.summary.enrolled, 'student')}).
          </p>
          <h3 id="grades-terms">By term</h3>
          <BarTable
            caption={`Average grade in each term, oldest first`}
            head={['Term', 'Average', 'Sections']}
            rows={byTerm(result).map((t) => ({ label: termName(t.label), value: t.average, detail: `${plural(t.sections, 'section')} · ${plural(t.enrolled, 'student')}` }))}
            format={grade}
          />
          {result.trend && result.trend.direction !== 'insufficient-data' && <p class="muted">{result.trend.explanation}</p>}
        </>
      )}
      <InstructorTable state={instructors} />
      {result && result.sections.length > 0 && <DistributionPicker result={result} />}
    </Panel>
  );
}

function InstructorTable({ state }: { state: { data?: { instructors: Instructor[] }; error?: string } }) {
  const people = state.data?.instructors ?? [];
  if (!people.length) return null;
  const graded = people.filter((p) => p.grades);
  const ranked = [...graded].sort((a, b) => (b.grades!.weightedAverage ?? -1) - (a.grades!.weightedAverage ?? -1) || a.name.localeCompare(b.name));
  const others = people.filter((p) => !p.grades);
  const also = (p: Instructor) => (p.spellings && p.spellings.length > 1 ? `; also listed as ${p.spellings.filter((s) => s !== p.name).join(', ')}` : '');
  return (
    <>
      <h3 id="grades-instructors">By instructor</h3>
      {ranked.length > 0 && (
        <BarTable
          caption="Average grade of each instructor's sections, highest first"
          head={['Instructor', 'Average', 'Taught']}
          rows={ranked.map((p) => ({
            label: p.name,
            value: p.grades!.weightedAverage,
            detail: `${plural(p.grades!.sections, 'section')} in ${plural((p.grades!.terms ?? p.terms).length, 'term')}${also(p)}`,
          }))}
          format={grade}
        />
      )}
      {others.length > 0 && (
        <p class="muted">
          {ranked.length ? 'Also taught by (no grades published): ' : 'Taught by (no grades published): '}
          {others
            .slice(0, 12)
            .map((p) => `${p.name} (${p.terms.slice(0, 2).map(termName).join(', ')}${p.terms.length > 2 ? '…' : ''})`)
            .join('; ')}
          {others.length > 12 ? ` and ${others.length - 12} more` : ''}.
        </p>
      )}
    </>
  );
}

function DistributionPicker({ result }: { result: GradesResult }) {
  const shown = distributions(result);
  const [picked, setPicked] = useState(0);
  const distribution = shown[Math.min(picked, shown.length - 1)];
  if (!distribution) return null;
  const suppressed = distribution.partlySuppressed || distribution.bins.some((b) => b.count === null);
  return (
    <>
      <h3 id="grades-distribution">Distribution</h3>
      <label for="grade-row">Term or section</label>
      <select id="grade-row" value={String(Math.min(picked, shown.length - 1))} onChange={(e) => setPicked(Number(e.currentTarget.value))}>
        {shown.map((d, i) => (
          <option key={d.label} value={String(i)}>
            {d.label}
          </option>
        ))}
      </select>
      <GradeChart
        bins={distribution.bins}
        caption={`${distribution.label}: average ${distribution.average === null ? 'n/a' : grade(distribution.average)}, ${plural(distribution.enrolled, 'student')}`}
      />
      {/* Said only when this chart has a gap: otherwise there is nothing suppressed to explain. */}
      {suppressed && (
        <p class="muted">
          {distribution.partlySuppressed && !distribution.bins.some((b) => b.count === null)
            ? 'Some sections of this term had bins suppressed by the source (too few students), so these counts are a floor.'
            : 'Dashed bins were suppressed by the source to protect small classes (too few students); they are unknown, not zero.'}
        </p>
      )}
    </>
  );
}
