import { useState } from 'preact/hooks';
import { mountView, type ViewHost, type ViewProps } from './runtime/mount-view.js';
import { statusOf, type CompletedInput, type NodeStatus, type RequirementNode } from './lib/prereq-status.js';

/** The tn_course_prereqs view: the requirement tree, each part met or not for the courses given; a course opens its own. */

interface PrereqsResult {
  course: string;
  text: string | null;
  parsed: { tree: RequirementNode; fullyParsed: boolean; unparsedClauses: string[] };
  check: { satisfied: boolean | 'unknown'; missing: RequirementNode[]; unmetConditions: string[]; explanation: string[]; status?: string; verdict?: string } | null;
  /** False for a course with no catalogue entry: its prerequisites are unknown, not empty. */
  prerequisitesKnown?: boolean;
}

interface PrereqsInput {
  course: string;
  completed: CompletedInput[];
  inProgress: string[];
}

const MARK: Record<NodeStatus, { icon: string; label: string; tone: string }> = {
  met: { icon: '✓', label: 'met', tone: 'ok' },
  unmet: { icon: '✗', label: 'not met', tone: 'bad' },
  unknown: { icon: '?', label: 'cannot be confirmed', tone: 'warn' },
};

const institutionOf = (ref: string) => ref.slice(0, ref.indexOf(':'));

interface Checking {
  completed: CompletedInput[];
  inProgress: string[];
}

function PrerequisiteTree({ result, input, host }: ViewProps<PrereqsResult, PrereqsInput>) {
  const [stack, setStack] = useState<PrereqsResult[]>([result]);
  const [opening, setOpening] = useState<{ course?: string; error?: string }>({});
  const current = stack[stack.length - 1]!;
  // Only a call that gave completed courses is checked; the courses a node opens are checked against the same record.
  const checking: Checking | undefined = result.check ? { completed: input.completed ?? [], inProgress: input.inProgress ?? [] } : undefined;
  const home = institutionOf(current.course);

  const open = (ref: string) => {
    setOpening({ course: ref });
    const args = { course: ref, ...(checking ? { completed: checking.completed, ...(checking.inProgress.length ? { inProgress: checking.inProgress } : {}) } : {}) };
    host.callTool<PrereqsResult>('course_prereqs', args).then(
      (next) => {
        setStack([...stack, next]);
        setOpening({});
        host.updateContext(`The student opened the prerequisites of ${next.course} from those of ${current.course}.`);
      },
      (error: Error) => setOpening({ error: `${ref}: ${error.message}` }),
    );
  };
  const overall = current.check ? MARK[current.check.satisfied === true ? 'met' : current.check.satisfied === false ? 'unmet' : 'unknown'] : undefined;
  const empty = current.parsed.tree.type === 'all' && current.parsed.tree.children.length === 0;
  const unknown = current.prerequisitesKnown === false;
  const chip = !current.check
    ? ''
    : unknown
      ? 'Not known'
      : current.check.status === 'met-if-grades'
        ? 'Met if grades are'
        : current.check.satisfied === true
          ? 'You meet them'
          : current.check.satisfied === false
            ? 'Not yet'
            : 'Cannot confirm';

  return (
    <div>
      <header class="head">
        <div>
          <h1>Prerequisites of {current.course}</h1>
          {stack.length > 1 && (
            <nav aria-label="Opened courses" class="small muted">
              {stack.map((item, index) => (
                <span key={item.course}>
                  {index > 0 && ' › '}
                  {index < stack.length - 1 ? (
                    <button type="button" class="link" onClick={() => setStack(stack.slice(0, index + 1))}>
                      {item.course}
                    </button>
                  ) : (
                    <span aria-current="page">{item.course}</span>
                  )}
                </span>
              ))}
            </nav>
          )}
        </div>
        {overall && (
          <span class={`chip ${unknown ? MARK.unknown.tone : overall.tone}`}>
            {unknown ? MARK.unknown.icon : overall.icon} {chip}
          </span>
        )}
      </header>
      {current.check ? (
        current.check.satisfied !== true && <p class="small">{current.check.verdict ?? current.check.explanation[0]}</p>
      ) : (
        <p class="small muted">Ask with the courses you completed (and grades) to see which parts you meet.</p>
      )}
      {unknown ? (
        <p class="warn">Not known: there is no catalogue entry for {current.course}, only transfer rules that name it.</p>
      ) : empty ? (
        <p>No prerequisites.</p>
      ) : (
        <ul class="tree" aria-label={`Prerequisite tree of ${current.course}`}>
          <Node node={current.parsed.tree} checking={checking} home={home} host={host} onOpen={open} />
        </ul>
      )}
      {opening.course && (
        <p class="small muted" role="status">
          Opening {opening.course}…
        </p>
      )}
      {opening.error && (
        <p class="small bad" role="alert">
          {opening.error}
        </p>
      )}
      {current.parsed.unparsedClauses.length > 0 && <p class="small warn">Not understood, read as published: {current.parsed.unparsedClauses.join(' | ')}</p>}
      {current.text && (
        <details class="small">
          <summary>As published</summary>
          <p class="muted">{current.text}</p>
        </details>
      )}
    </div>
  );
}

function Mark({ node, checking }: { node: RequirementNode; checking?: Checking }) {
  if (!checking) return null;
  const mark = MARK[statusOf(node, checking.completed, checking.inProgress)];
  return (
    <span class={`mark ${mark.tone}`} title={mark.label}>
      <span aria-hidden="true">{mark.icon}</span>
      <span class="visually-hidden">({mark.label})</span>
    </span>
  );
}

function Node(props: { node: RequirementNode; checking?: Checking; home: string; host: ViewHost; onOpen: (ref: string) => void }) {
  const { node, checking, home, host, onOpen } = props;
  switch (node.type) {
    case 'all':
    case 'any': {
      const label = node.type === 'all' ? 'All of' : node.count && node.count > 1 ? `${node.count} of` : 'One of';
      return (
        <li>
          <Mark node={node} checking={checking} /> <span class="group">{label}</span>
          <ul>
            {node.children.map((child, index) => (
              <Node key={index} {...props} node={child} />
            ))}
          </ul>
        </li>
      );
    }
    case 'course': {
      const institution = node.institution ?? home;
      const ref = `${institution}:${node.code}`;
      const extras = [node.minGrade && `min. ${node.minGrade}`, node.concurrent && 'may be taken at the same time', node.orEquivalent && 'or equivalent'].filter(Boolean);
      const name = `${institution === home ? '' : `${institution.toUpperCase()} `}${node.code}`;
      return (
        <li>
          <Mark node={node} checking={checking} />{' '}
          {host.canCallTools ? (
            <button type="button" class="link course" title={`Open the prerequisites of ${ref}`} onClick={() => onOpen(ref)}>
              {name}
            </button>
          ) : (
            <strong>{name}</strong>
          )}
          {extras.length > 0 && <span class="muted small"> · {extras.join(', ')}</span>}
        </li>
      );
    }
    case 'condition':
      return (
        <li>
          <Mark node={node} checking={checking} /> {node.text}
        </li>
      );
    default:
      return (
        <li class="warn">
          <Mark node={node} checking={checking} /> Not understood: {node.text}
        </li>
      );
  }
}

mountView(PrerequisiteTree, {
  name: 'prerequisite-tree',
  tool: 'course_prereqs',
  waiting: 'Reading the prerequisites…',
  accepts: (output) => typeof output.course === 'string' && typeof (output.parsed as { tree?: unknown } | undefined)?.tree === 'object',
});
