import { useState } from 'preact/hooks';
import { GradeChart } from '../src/components/grade-chart.js';
import { BarTable, ColumnChart } from './runtime/charts.js';
import { mountView, type ViewProps } from './runtime/mount-view.js';
import { byInstructor, byTerm, distributions, type GradesResult } from './lib/grade-groups.js';

/** The tn_course_grades view: averages per term and per instructor, and any distribution, one tab each. */

type Tab = 'terms' | 'instructors' | 'distribution';
const TABS: { id: Tab; label: string }[] = [
  { id: 'terms', label: 'By term' },
  { id: 'instructors', label: 'By instructor' },
  { id: 'distribution', label: 'Distribution' },
];

/** Averages to one decimal: the sources publish to two, and a tenth is what a student compares. */
const grade = (value: number) => value.toFixed(1);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function GradeHistory({ result }: ViewProps<GradesResult, { course: string }>) {
  const [tab, setTab] = useState<Tab>('terms');
  const [picked, setPicked] = useState(0);
  const terms = byTerm(result);
  const instructors = byInstructor(result);
  const shown = distributions(result);
  const distribution = shown[Math.min(picked, shown.length - 1)];
  const trend = result.trend;

  const onKey = (event: KeyboardEvent) => {
    const index = TABS.findIndex((t) => t.id === tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = TABS[(index + step + TABS.length) % TABS.length]!;
    setTab(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };

  return (
    <div>
      <header class="head">
        <div>
          <h1>Grades in {result.course}</h1>
          <p class="small muted">
            {plural(result.summary.sections, 'section')} over {plural(result.summary.terms.length, 'term')} · {result.summary.enrolled} students
          </p>
        </div>
        <div class="figure" aria-label={`Average ${result.summary.weightedAverage === null ? 'not known' : grade(result.summary.weightedAverage)}`}>
          {result.summary.weightedAverage === null ? 'n/a' : grade(result.summary.weightedAverage)} <span class="small muted">average</span>
        </div>
      </header>
      {result.sections.length === 0 ? (
        <p class="muted">No grade distributions are published for this course.</p>
      ) : (
        <>
          <div class="tabs" role="tablist" aria-label="Views of the grades" onKeyDown={onKey}>
            {TABS.map((t) => (
              <button
                key={t.id}
                id={`tab-${t.id}`}
                type="button"
                role="tab"
                aria-selected={tab === t.id}
                aria-controls={`panel-${t.id}`}
                tabIndex={tab === t.id ? 0 : -1}
                onClick={() => setTab(t.id)}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
            {tab === 'terms' && (
              <>
                <ColumnChart
                  id="terms"
                  title={`Average grade per term in ${result.course}, oldest first`}
                  points={terms.map((t) => ({ label: t.label, value: t.average, note: plural(t.sections, 'section') }))}
                  format={grade}
                />
                {trend && (
                  <p class="small">
                    <span class={`chip ${trend.direction === 'harder' ? 'bad' : trend.direction === 'easier' ? 'ok' : 'muted'}`}>{trend.direction}</span> {trend.explanation}
                  </p>
                )}
              </>
            )}
            {tab === 'instructors' && (
              <BarTable
                caption={`Average grade per instructor in ${result.course}, highest first`}
                head={['Instructor', 'Average', 'Taught']}
                rows={instructors.map((i) => ({ label: i.label, value: i.average, detail: `${plural(i.sections, 'section')}, ${i.enrolled} students` }))}
                format={grade}
              />
            )}
            {tab === 'distribution' && distribution && (
              <>
                <label class="small" for="distribution">
                  Term or section{' '}
                </label>
                <select id="distribution" value={String(Math.min(picked, shown.length - 1))} onChange={(event) => setPicked(Number(event.currentTarget.value))}>
                  {shown.map((d, index) => (
                    <option key={d.label} value={String(index)}>
                      {d.label}
                    </option>
                  ))}
                </select>
                <GradeChart
                  bins={distribution.bins}
                  caption={`${distribution.label}: average ${distribution.average === null ? 'n/a' : grade(distribution.average)}, ${distribution.enrolled} students${distribution.partlySuppressed ? '; some sections suppressed some bins, so those counts are a floor' : ''}`}
                />
              </>
            )}
          </div>
          {result.suppression.anySuppressed && <p class="small muted">{result.suppression.note}</p>}
        </>
      )}
    </div>
  );
}

mountView(GradeHistory, {
  name: 'grade-history',
  tool: 'course_grades',
  waiting: 'Reading grade distributions…',
  accepts: (output) => Array.isArray(output.sections) && typeof output.summary === 'object',
});
