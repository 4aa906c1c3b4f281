import { useState } from 'preact/hooks';
import { ErrorNote, Loading } from '../components/status.js';
import { navigate } from '../router.js';
import { useTitle, useTool } from '../use-tool.js';
import { CompareTable, MatchList, type Match } from './transfer-results.js';
import { TRANSFER_SENDERS_LIST, TransferSources } from '../components/transfer-sources.js';

interface Resolution {
  sourceInstitution: string;
  targetInstitution: string;
  asOfDate: string;
  exactMatches: Match[];
  partialMatches: Match[];
  conditionalMatches?: Match[];
  noCreditMatches?: Match[];
  nearMisses: { course: string; reason: string }[];
  conflicts: { courses: string[]; ruleIds: string[] }[];
  plan: { ruleIds: string[]; totalCredits: number; optimal: boolean };
}

const splitCourses = (text: string) => text.split(',').map((c) => c.trim()).filter(Boolean);

export function TransferPage({ params }: { params: URLSearchParams }) {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const courses = splitCourses(params.get('courses') ?? '');
  useTitle(from && to ? `Transfer ${from.toUpperCase()} → ${to.toUpperCase()}` : 'Transfer planner');
  const [form, setForm] = useState({ from: from || 'langara', to: to || 'sfu', courses: courses.join(', ') });
  const [compare, setCompare] = useState(false);
  const ready = from && to && courses.length > 0;
  const result = useTool<Resolution>('tn_transfer_resolve', ready ? { sourceInstitution: from, targetInstitution: to, sourceCourses: courses } : null);
  const comparison = useTool<{ receivers: Parameters<typeof CompareTable>[0]['receivers'] }>(
    'tn_transfer_compare',
    compare && from && courses.length ? { sourceInstitution: from, sourceCourses: courses } : null,
  );
  const submit = (event: Event) => {
    event.preventDefault();
    const list = splitCourses(form.courses).join(',');
    setCompare(false);
    navigate(`/transfer?from=${encodeURIComponent(form.from.trim())}&to=${encodeURIComponent(form.to.trim())}&courses=${encodeURIComponent(list)}`);
  };
  const field = (name: keyof typeof form) => ({ id: `t-${name}`, value: form[name], onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }) });
  return (
    <>
      <h1>Transfer planner</h1>
      <form class="row" onSubmit={submit}>
        <div>
          <label for="t-from">From institution</label>
          <input {...field('from')} size={10} list={TRANSFER_SENDERS_LIST} />
        </div>
        <div>
          <label for="t-to">To institution</label>
          <input {...field('to')} size={10} />
        </div>
        <div>
          <label for="t-courses">Courses taken (comma-separated)</label>
          <input {...field('courses')} size={36} placeholder="CPSC 1160, CPSC 1181" />
        </div>
        <button type="submit">Plan transfer</button>
      </form>
      <TransferSources />
      {!ready && <p class="muted">Enter the courses you took and where you are going, then press Enter.</p>}
      {result.loading && <Loading what="transfer plan" />}
      <ErrorNote message={result.error} />
      {result.data && !result.loading && <Resolved r={result.data} />}
      {ready && (
        <section aria-labelledby="compare-heading">
          <h2 id="compare-heading">Compare receivers</h2>
          {!compare && (
            <button type="button" class="secondary" onClick={() => setCompare(true)}>
              Compare every receiving institution
            </button>
          )}
          {comparison.loading && <Loading what="comparison" />}
          <ErrorNote message={comparison.error} />
          {comparison.data && <CompareTable receivers={comparison.data.receivers} courses={courses} from={from} />}
        </section>
      )}
    </>
  );
}

function Resolved({ r }: { r: Resolution }) {
  const planned = new Set(r.plan.ruleIds);
  return (
    <>
      <section class="panel" aria-labelledby="plan-heading">
        <h2 id="plan-heading">
          Plan: {r.plan.totalCredits} credits at {r.targetInstitution.toUpperCase()}
        </h2>
        <p class="muted">
          Rules in force on {r.asOfDate}
          {r.plan.optimal ? '' : ' (best plan found within the search budget)'}.
        </p>
        <MatchList matches={r.exactMatches.filter((m) => planned.has(m.ruleId))} empty="No exact match transfers credit." />
      </section>
      <Group title="Exact matches" id="exact" matches={r.exactMatches} />
      <Group title="Partial matches" id="partial" matches={r.partialMatches} />
      <Group title="Conditional matches" id="conditional" matches={r.conditionalMatches ?? []} />
      <Group title="No credit" id="nocredit" matches={r.noCreditMatches ?? []} />
      {r.conflicts.length > 0 && (
        <section class="panel" aria-labelledby="conflicts-heading">
          <h2 id="conflicts-heading">Conflicts</h2>
          <ul>
            {r.conflicts.map((c, i) => (
              <li key={i}>
                {c.courses.join(', ')} are claimed by several rules ({c.ruleIds.length}); the plan uses each course once.
              </li>
            ))}
          </ul>
        </section>
      )}
      {r.nearMisses.length > 0 && (
        <section class="panel" aria-labelledby="misses-heading">
          <h2 id="misses-heading">No rule in force</h2>
          <ul>
            {r.nearMisses.map((m) => (
              <li key={m.course}>
                {m.course}: {m.reason.replace(/-/g, ' ')}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

const Group = ({ title, id, matches }: { title: string; id: string; matches: Match[] }) =>
  matches.length === 0 ? null : (
    <section class="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        {title} ({matches.length})
      </h2>
      <MatchList matches={matches} empty="" />
    </section>
  );
