import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import type { compareContract } from '../../../functions/transfer/contracts/compare.js';
import { coursePath } from '../router.js';
import { hrefOfRef } from './search-page.js';

export interface Match {
  ruleId: string;
  usedCourses: string[];
  missingCourses: string[];
  targets: Target[];
  sourceCredits: number | null;
  targetCredits: number | null;
  condition: string | null;
  effectiveStart: string;
  effectiveEnd: string | null;
  evidence: { label: string; url: string }[];
  confidence: number;
  conditions?: { status: string; wouldHoldIf: string }[];
}

export interface Target {
  kind: string;
  ref?: string;
  institution?: string;
  code?: string;
  text: string;
  credits: number | null;
}

const code = (ref: string) => ref.slice(ref.indexOf(':') + 1);

/** A specific receiving course has a page of its own (a stub when only transfer rules name it); generic and elective credit does not. */
export const targetHref = (t: Target) => (t.ref ? hrefOfRef(t.ref) : t.kind === 'course' && t.institution && t.code ? coursePath(t.institution, t.code) : undefined);

export function MatchList({ matches, empty, unit = 'credits' }: { matches: Match[]; empty: string; unit?: string }) {
  if (!matches.length) return empty ? <p>{empty}</p> : null;
  return (
    <ul class="results">
      {matches.map((m) => (
        <li key={m.ruleId}>
          <strong>{m.usedCourses.map(code).join(' + ') || '—'}</strong> →{' '}
          {m.targets.map((t, i) => (
            <span key={i}>
              {targetHref(t) ? <a href={targetHref(t)}>{t.text}</a> : t.text}
              {i < m.targets.length - 1 ? ', ' : ''}
            </span>
          ))}
          <span class="muted">
            {' '}
            · {m.targetCredits ?? '?'} {unit}
          </span>
          {m.missingCourses.length > 0 && <div class="warn">Also needs: {m.missingCourses.map(code).join(', ')}</div>}
          {m.condition && <div>Condition: {m.condition}</div>}
          {m.conditions
            ?.filter((c) => c.status !== 'holds')
            .map((c, i) => (
              <div key={i} class="warn">
                Would count if {c.wouldHoldIf}
              </div>
            ))}
          <div class="muted">
            Effective {m.effectiveStart}
            {m.effectiveEnd ? ` to ${m.effectiveEnd}` : ''} · confidence {Math.round(m.confidence * 100)}%
            {m.evidence.map((e) => (
              <span key={e.url}>
                {' · '}
                <a href={e.url} rel="noopener noreferrer" target="_blank">
                  {e.label}
                </a>
              </span>
            ))}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** One receiver of `tn_transfer_compare`, as its contract says. */
type Receiver = ToolOutput<typeof compareContract>['receivers'][number];

/**
 * Receivers ranked on one scale: the Credits column is BC's common scale (a one-term course is 3
 * credits everywhere), so UVic's 6 units for four one-term courses read 12; what the receiver itself
 * awards stands beside it.
 */
export function CompareTable({ receivers, courses, from }: { receivers: Receiver[]; courses: string[]; from: string }) {
  if (!receivers.length) return <p>No receiving institution has rules for these courses.</p>;
  const list = encodeURIComponent(courses.join(','));
  const scales = [...new Map(receivers.filter((r) => r.creditScale && r.creditScale.factor !== 1).map((r) => [r.institution, `${r.name ?? r.institution.toUpperCase()}: ${r.creditScale!.rule}`])).values()];
  return (
    <>
      {/* Explicit roles: on a phone the rows are drawn as cards (display: block), and stay a table to assistive technology. */}
      <table class="compare stack" role="table">
        <caption class="visually-hidden">Receiving institutions ranked by credits transferred, on a common scale where a one-term course is 3 credits</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Receiver
            </th>
            <th scope="col" role="columnheader">
              Credits <span class="visually-hidden">on the common scale, where a one-term course is 3 credits</span>
            </th>
            <th scope="col" role="columnheader">
              As awarded
            </th>
            <th scope="col" role="columnheader">
              Transfers
            </th>
            <th scope="col" role="columnheader">
              Lost
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {receivers.map((r) => (
            <tr key={r.institution} role="row">
              <td role="cell" class="receiver">
                <a href={`/transfer?from=${encodeURIComponent(from)}&to=${encodeURIComponent(r.institution)}&courses=${list}`}>{r.name ?? r.institution.toUpperCase()}</a>
              </td>
              <td role="cell" data-label="Credits">
                {r.normalizedCredits ?? r.plannedCredits}
              </td>
              <td role="cell" data-label="As awarded">
                {r.plannedCredits} {r.creditScale?.unit ?? 'credits'}
              </td>
              <td role="cell" data-label="Transfers">
                {r.coursesTransferred.map(code).join(', ') || '—'}
              </td>
              <td role="cell" data-label="Lost">
                {r.coursesLost.map(code).join(', ') || '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">Credits are on BC&rsquo;s common scale, where a one-term course is 3 credits; receivers are ranked by them.{scales.length ? ` ${scales.join(' ')}` : ''}</p>
    </>
  );
}
