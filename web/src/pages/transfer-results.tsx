import { hrefOfRef } from './search-page.js';

export interface Match {
  ruleId: string;
  usedCourses: string[];
  missingCourses: string[];
  targets: { kind: string; ref?: string; text: string; credits: number | null }[];
  sourceCredits: number | null;
  targetCredits: number | null;
  condition: string | null;
  effectiveStart: string;
  effectiveEnd: string | null;
  evidence: { label: string; url: string }[];
  confidence: number;
  conditions?: { status: string; wouldHoldIf: string }[];
}

const code = (ref: string) => ref.slice(ref.indexOf(':') + 1);

export function MatchList({ matches, empty }: { matches: Match[]; empty: string }) {
  if (!matches.length) return empty ? <p>{empty}</p> : null;
  return (
    <ul class="results">
      {matches.map((m) => (
        <li key={m.ruleId}>
          <strong>{m.usedCourses.map(code).join(' + ') || '—'}</strong> →{' '}
          {m.targets.map((t, i) => (
            <span key={i}>
              {t.ref ? <a href={hrefOfRef(t.ref)}>{t.text}</a> : t.text}
              {i < m.targets.length - 1 ? ', ' : ''}
            </span>
          ))}
          <span class="muted"> · {m.targetCredits ?? '?'} credits</span>
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

interface Receiver {
  institution: string;
  name: string | null;
  plannedCredits: number;
  normalizedCredits?: number;
  creditScale?: { factor: number; unit: string; rule: string };
  coursesTransferred: string[];
  coursesLost: string[];
}

/** Receivers ranked on one scale (a one-term course = 3): a receiver awarding units shows them, and what they are worth. */
export function CompareTable({ receivers, courses, from }: { receivers: Receiver[]; courses: string[]; from: string }) {
  if (!receivers.length) return <p>No receiving institution has rules for these courses.</p>;
  const list = encodeURIComponent(courses.join(','));
  const scales = [...new Map(receivers.filter((r) => r.creditScale && r.creditScale.factor !== 1).map((r) => [r.institution, `${r.name ?? r.institution.toUpperCase()}: ${r.creditScale!.rule}`])).values()];
  return (
    <>
      <table>
        <caption class="visually-hidden">Receiving institutions ranked by credits transferred, on a common scale where a one-term course is 3 credits</caption>
        <thead>
          <tr>
            <th scope="col">Receiver</th>
            <th scope="col">Credits</th>
            <th scope="col">
              <abbr title="A one-term course is 3 credits everywhere">Common scale</abbr>
            </th>
            <th scope="col">Transfers</th>
            <th scope="col">Lost</th>
          </tr>
        </thead>
        <tbody>
          {receivers.map((r) => (
            <tr key={r.institution}>
              <td>
                <a href={`/transfer?from=${encodeURIComponent(from)}&to=${encodeURIComponent(r.institution)}&courses=${list}`}>{r.name ?? r.institution.toUpperCase()}</a>
              </td>
              <td>
                {r.plannedCredits} {r.creditScale?.unit ?? 'credits'}
              </td>
              <td>{r.normalizedCredits ?? r.plannedCredits}</td>
              <td>{r.coursesTransferred.map(code).join(', ') || '—'}</td>
              <td>{r.coursesLost.map(code).join(', ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">Ranked by the common scale.{scales.length ? ` ${scales.join(' ')}` : ''}</p>
    </>
  );
}
