import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import type { resolveContract } from '../../../functions/transfer/contracts/resolve.js';
import { useEffect, useState } from 'preact/hooks';
import { InstitutionPicker, matchInstitution, namesList, useInstitutions, type Institution } from '../components/institution-picker.js';
import { ErrorNote, Loading } from '../components/status.js';
import { navigate } from '../router.js';
import { useTitle, useTool } from '../use-tool.js';
import { CompareTable, MatchList, type Match } from './transfer-results.js';
import { TransferSources } from '../components/transfer-sources.js';

type Resolution = ToolOutput<typeof resolveContract>;

const splitCourses = (text: string) => text.split(',').map((c) => c.trim()).filter(Boolean);

/** Why no plan is asked for: an institution no one knows, or a pair no rule is loaded for, said before any "0 credits". */
interface Blocker {
  field: 'from' | 'to';
  message: string;
}

function blockerOf(institutions: Institution[], from: string, to: string): Blocker | undefined {
  const source = matchInstitution(institutions, from);
  const target = matchInstitution(institutions, to);
  const senders = institutions.filter((i) => i.sendsTransferRules).sort((a, b) => a.name.localeCompare(b.name));
  const example = senders[0]?.name ?? 'Langara College';
  if (from && !source) return { field: 'from', message: `"${from}" is not an institution Tutor Nexus knows. Choose one from the list, by name or code (e.g. ${example}).` };
  if (to && !target) return { field: 'to', message: `"${to}" is not an institution Tutor Nexus knows. Choose one from the list, by name or code (e.g. Simon Fraser University).` };
  if (source && source.sendsTransferRules === false) {
    return { field: 'from', message: `No transfer rules from ${source.name} are loaded yet, so no plan can be made from it. Plans can be made from ${namesList(senders) || 'no institution yet'}.` };
  }
  return undefined;
}

export function TransferPage({ params }: { params: URLSearchParams }) {
  const from = (params.get('from') ?? '').trim();
  const to = (params.get('to') ?? '').trim();
  const courses = splitCourses(params.get('courses') ?? '');
  const known = useInstitutions();
  const institutions = known.data?.items ?? [];
  const source = matchInstitution(institutions, from);
  const target = matchInstitution(institutions, to);
  useTitle(from && to ? `Transfer ${source?.name ?? from} → ${target?.name ?? to}` : 'Transfer planner');
  const [form, setForm] = useState({ from: from || 'Langara College', to: to || 'Simon Fraser University', courses: courses.join(', ') });
  // The link names institutions by slug; the fields show them by name once the list is in.
  useEffect(() => {
    if (!institutions.length) return;
    setForm((f) => ({ ...f, from: f.from === from && source ? source.name : f.from, to: f.to === to && target ? target.name : f.to }));
  }, [institutions.length, from, to]);
  const [compare, setCompare] = useState(false);
  const listed = Boolean(known.data) || Boolean(known.error);
  const blocker = known.data ? blockerOf(institutions, from, to) : undefined;
  const ready = Boolean(from && to && courses.length > 0 && listed && !blocker);
  const result = useTool<Resolution>('tn_transfer_resolve', ready ? { sourceInstitution: source?.id ?? from, targetInstitution: target?.id ?? to, sourceCourses: courses } : null);
  const comparison = useTool<{ receivers: Parameters<typeof CompareTable>[0]['receivers'] }>(
    'tn_transfer_compare',
    compare && from && courses.length && !(blocker?.field === 'from') ? { sourceInstitution: source?.id ?? from, sourceCourses: courses } : null,
  );
  const submit = (event: Event) => {
    event.preventDefault();
    const list = splitCourses(form.courses).join(',');
    // A name, code or alias becomes the institution's slug; anything else stays as typed and is named as unknown.
    const slug = (typed: string) => matchInstitution(institutions, typed)?.id ?? typed.trim();
    setCompare(false);
    navigate(`/transfer?from=${encodeURIComponent(slug(form.from))}&to=${encodeURIComponent(slug(form.to))}&courses=${encodeURIComponent(list)}`);
  };
  const senders = institutions.filter((i) => i.sendsTransferRules).sort((a, b) => a.name.localeCompare(b.name));
  const byName = [...institutions].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <h1>Transfer planner</h1>
      <form class="row" onSubmit={submit}>
        <InstitutionPicker
          id="t-from"
          label="From institution"
          value={form.from}
          onInput={(value) => setForm({ ...form, from: value })}
          options={[...senders, ...byName.filter((i) => !i.sendsTransferRules)]}
          note={(i) => (i.sendsTransferRules ? 'transfer rules loaded' : 'no transfer rules loaded yet')}
          invalid={blocker?.field === 'from'}
          describedBy={blocker?.field === 'from' ? 'transfer-blocker' : 'transfer-data'}
        />
        <InstitutionPicker
          id="t-to"
          label="To institution"
          value={form.to}
          onInput={(value) => setForm({ ...form, to: value })}
          options={byName}
          note={() => ''}
          invalid={blocker?.field === 'to'}
          describedBy={blocker?.field === 'to' ? 'transfer-blocker' : undefined}
        />
        <div>
          <label for="t-courses">Courses taken (comma-separated)</label>
          <input id="t-courses" value={form.courses} size={30} placeholder="CPSC 1160, CPSC 1181" onInput={(e) => setForm({ ...form, courses: e.currentTarget.value })} />
        </div>
        <button type="submit">Plan transfer</button>
      </form>
      {known.data && <TransferSources institutions={institutions} freshness={known.data.sourceFreshness} />}
      <ErrorNote message={known.error} />
      {blocker && (
        <p id="transfer-blocker" class="error" role="alert">
          {blocker.message}
        </p>
      )}
      {!ready && !blocker && !(from && to && courses.length) && <p class="muted">Enter the courses you took and where you are going, then press Enter.</p>}
      {result.loading && <Loading what="transfer plan" />}
      <ErrorNote message={result.error} />
      {result.data && !result.loading && <Resolved r={result.data} target={target} />}
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
          {comparison.data && <CompareTable receivers={comparison.data.receivers} courses={courses} from={source?.id ?? from} />}
        </section>
      )}
    </>
  );
}

function Resolved({ r, target }: { r: Resolution; target?: Institution }) {
  const planned = new Set(r.plan.ruleIds);
  const receiver = target?.name ?? r.targetInstitution.toUpperCase();
  const unit = r.plan.creditScale?.unit ?? 'credits';
  const scaled = r.plan.creditScale && r.plan.creditScale.factor !== 1 && r.plan.normalizedCredits !== undefined;
  return (
    <>
      <section class="panel" aria-labelledby="plan-heading">
        {/* Nothing transferring is said in words: never "0 credits". */}
        <h2 id="plan-heading">{r.plan.totalCredits > 0 ? `Plan: ${r.plan.totalCredits} ${unit} at ${receiver}` : `No credit at ${receiver} for these courses`}</h2>
        {scaled && r.plan.totalCredits > 0 && (
          <p>
            That is {r.plan.normalizedCredits} credits on BC&rsquo;s common scale ({r.plan.creditScale!.rule}).
          </p>
        )}
        <p class="muted">
          Rules in force on {r.asOfDate}
          {r.plan.optimal ? '' : ' (best plan found within the search budget)'}.
        </p>
        <MatchList matches={r.exactMatches.filter((m) => planned.has(m.ruleId))} empty="No exact match transfers credit." unit={unit} />
      </section>
      <Group title="Exact matches" id="exact" matches={r.exactMatches} unit={unit} />
      <Group title="Partial matches" id="partial" matches={r.partialMatches} unit={unit} />
      <Group title="Conditional matches" id="conditional" matches={r.conditionalMatches ?? []} unit={unit} />
      <Group title="No credit" id="nocredit" matches={r.noCreditMatches ?? []} unit={unit} />
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

const Group = ({ title, id, matches, unit }: { title: string; id: string; matches: Match[]; unit: string }) =>
  matches.length === 0 ? null : (
    <section class="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        {title} ({matches.length})
      </h2>
      <MatchList matches={matches} empty="" unit={unit} />
    </section>
  );
