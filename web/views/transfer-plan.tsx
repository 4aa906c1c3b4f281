import { useState } from 'preact/hooks';
import { mountView, type ViewHost, type ViewProps } from './runtime/mount-view.js';
import { courseCode, planBoard, type BoardCard, type CardStatus, type ResolveResult } from './lib/plan-board.js';
import './transfer-plan.css';

/** The tn_transfer_resolve view: the plan as a board, and where else the same courses count. */

interface ResolveInput {
  sourceInstitution: string;
  targetInstitution: string;
  sourceCourses: string[];
  asOfDate: string;
  completedAtTarget: string[];
  program: string;
}

interface Receiver {
  institution: string;
  name: string | null;
  plannedCredits: number;
  coursesTransferred: string[];
  coursesLost: string[];
  conditionalCourses: string[];
  partialCourses: string[];
}

const STATUS_LABEL: Record<CardStatus, string> = {
  planned: 'in plan',
  conditional: 'conditional',
  partial: 'partial',
  elsewhere: 'not in plan',
  assessment: 'assessed individually',
  'no-credit': 'no credit',
  'no-rule': 'no rule',
};

const upper = (slug: string) => slug.toUpperCase();
const credits = (value: number | null) => (value === null ? '—' : `${value} ${value === 1 ? 'credit' : 'credits'}`);

function TransferPlan({ result, input, host }: ViewProps<ResolveResult, ResolveInput>) {
  // Plans opened from the comparison stack on the one the tool call made.
  const [stack, setStack] = useState<ResolveResult[]>([result]);
  const current = stack[stack.length - 1]!;
  const board = planBoard(current, input.sourceCourses ?? []);
  const planned = board.lanes[0]!.cards;
  const from = upper(current.sourceInstitution);
  const to = upper(current.targetInstitution);
  const shared = { sourceInstitution: current.sourceInstitution, sourceCourses: board.courses, ...(input.asOfDate ? { asOfDate: input.asOfDate } : {}) };

  const open = async (receiver: string) => {
    const next = await host.callTool<ResolveResult>('transfer_resolve', { ...shared, targetInstitution: receiver });
    setStack([...stack, next]);
    host.updateContext(`The student opened the transfer plan from ${from} to ${upper(receiver)}: ${next.plan.totalCredits} credits.`);
  };

  return (
    <div class="plan">
      <header class="head">
        <div>
          <h1>
            {from} → {to}
          </h1>
          <p class="muted small">
            {board.transferring.length} of {board.courses.length} courses transfer · rules in force on {current.asOfDate} ·{' '}
            {board.optimal ? 'the most credit these courses can earn' : 'the best plan found (the search stopped early)'}
          </p>
        </div>
        <div class="figure" aria-label={`${current.plan.totalCredits} credits transfer`}>
          {current.plan.totalCredits} <span class="small muted">credits</span>
        </div>
      </header>
      {stack.length > 1 && (
        <p>
          <button type="button" onClick={() => setStack(stack.slice(0, -1))}>
            ← Back to {upper(stack[stack.length - 2]!.targetInstitution)}
          </button>
        </p>
      )}
      {board.lanes.map((lane) =>
        lane.cards.length ? (
          <section key={lane.id} aria-labelledby={`lane-${lane.id}`} class={`lane lane-${lane.id}`}>
            <h2 id={`lane-${lane.id}`}>
              {lane.title} <span class="muted">({lane.cards.length})</span>
            </h2>
            <ul class="cards">
              {lane.cards.map((item) => (
                <Card key={item.key} card={item} host={host} />
              ))}
            </ul>
          </section>
        ) : null,
      )}
      {planned.length === 0 && <p class="muted">None of these courses earns credit at {to} under the rules in force.</p>}
      <Compare host={host} shared={shared} current={current.targetInstitution} onOpen={open} />
    </div>
  );
}

function Card({ card, host }: { card: BoardCard; host: ViewHost }) {
  return (
    <li class={`card card-${card.status}`}>
      <div class="card-top">
        <strong>{card.courses.join(' + ')}</strong>
        <span class="chip">{STATUS_LABEL[card.status]}</span>
      </div>
      {card.awards.length > 0 && (
        <p class="awards">
          <span aria-hidden="true">→ </span>
          <span class="visually-hidden">earns </span>
          {card.awards.map((award) => award.text).join(', ')}
        </p>
      )}
      <p class="credits">{card.status === 'no-rule' ? 'no credit' : credits(card.credits)}</p>
      {card.notes.map((note, index) => (
        <p key={index} class={`small ${card.status === 'planned' ? 'muted' : 'warn'}`}>
          {note}
        </p>
      ))}
      {host.canOpenLinks &&
        card.evidence.slice(0, 1).map((evidence) => (
          <button key={evidence.url} type="button" class="link" title={evidence.label} onClick={() => host.openLink(evidence.url)}>
            BC Transfer Guide ↗
          </button>
        ))}
    </li>
  );
}

function Compare(props: { host: ViewHost; shared: Record<string, unknown>; current: string; onOpen: (receiver: string) => Promise<void> }) {
  const { host, shared, current, onOpen } = props;
  const [state, setState] = useState<{ loading?: boolean; receivers?: Receiver[]; error?: string }>({});
  if (!host.canCallTools) return null;
  const compare = () => {
    setState({ loading: true });
    host.callTool<{ receivers: Receiver[] }>('transfer_compare', shared).then(
      (answer) => setState({ receivers: answer.receivers }),
      (error: Error) => setState({ error: error.message }),
    );
  };
  const open = (receiver: string) => onOpen(receiver).catch((error: Error) => setState({ ...state, error: error.message }));
  return (
    <section aria-labelledby="compare" class="compare">
      <h2 id="compare">Elsewhere</h2>
      {!state.receivers && (
        <button type="button" onClick={compare} disabled={state.loading}>
          {state.loading ? 'Comparing…' : 'Compare where these courses count most'}
        </button>
      )}
      {state.error && (
        <p class="bad" role="alert">
          {state.error}
        </p>
      )}
      {state.receivers && (
        <table>
          <caption class="visually-hidden">Receiving institutions ranked by the credits these courses earn</caption>
          <thead>
            <tr>
              <th scope="col">Receiver</th>
              <th scope="col">Credits</th>
              <th scope="col">Transfer</th>
              <th scope="col">Lost</th>
              <th scope="col">
                <span class="visually-hidden">Plan</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.receivers.map((r) => (
              <tr key={r.institution} aria-current={r.institution === current ? 'true' : undefined}>
                <td>{r.name ?? upper(r.institution)}</td>
                <td>{r.plannedCredits}</td>
                <td>{r.coursesTransferred.map(courseCode).join(', ') || '—'}</td>
                <td>{r.coursesLost.map(courseCode).join(', ') || '—'}</td>
                <td>
                  {r.institution === current ? (
                    <span class="muted small">shown</span>
                  ) : (
                    <button type="button" class="link" onClick={() => open(r.institution)}>
                      Plan for {upper(r.institution)}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

mountView(TransferPlan, {
  name: 'transfer-plan',
  tool: 'transfer_resolve',
  waiting: 'Resolving transfer credit…',
  accepts: (output) => Array.isArray(output.exactMatches) && typeof output.plan === 'object',
});
