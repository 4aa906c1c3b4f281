/** The prerequisite tree as a nested list: AND/OR groups, each course a link to its page, marked as the student's record has it. */
import { isFailingGrade, meetsGrade } from '../../../functions/course/prerequisites/grades.js';
import { coursePath } from '../router.js';

export type RequirementNode =
  | { type: 'all'; children: RequirementNode[] }
  | { type: 'any'; children: RequirementNode[]; count?: number }
  | { type: 'course'; code: string; institution?: string; minGrade?: string; concurrent?: boolean; orEquivalent?: boolean }
  | { type: 'condition'; text: string }
  | { type: 'unparsed'; text: string };

export interface DoneCourse {
  course: string;
  grade?: string;
}

const normalise = (code: string) => code.replace(/^[a-z-]+:/i, '').replace(/\s+/g, '').toUpperCase();

type Mark = { symbol: string; said: string; tone?: 'ok' | 'warn' | 'bad' };

function markOf(node: RequirementNode & { type: 'course' }, done: Map<string, DoneCourse>): Mark {
  const record = done.get(normalise(node.code));
  if (!record) return { symbol: '○', said: 'not done' };
  if (isFailingGrade(record.grade)) return { symbol: '✗', said: `done with ${record.grade}, not a pass`, tone: 'bad' };
  if (!node.minGrade) return { symbol: '✓', said: 'done', tone: 'ok' };
  if (!record.grade) return { symbol: '✓', said: `done; counts with at least ${node.minGrade}`, tone: 'warn' };
  const { result } = meetsGrade(record.grade, node.minGrade);
  if (result === 'yes') return { symbol: '✓', said: `done with ${record.grade}`, tone: 'ok' };
  if (result === 'no') return { symbol: '✗', said: `${record.grade} is below ${node.minGrade}`, tone: 'bad' };
  return { symbol: '✓', said: `done with ${record.grade}; may not reach ${node.minGrade}`, tone: 'warn' };
}

export function PrereqTree({ node, done, home }: { node: RequirementNode; done: DoneCourse[]; home: string }) {
  const record = new Map(done.map((c) => [normalise(c.course), c]));
  if ((node.type === 'all' || node.type === 'any') && node.children.length === 0) return <p>No prerequisites.</p>;
  return (
    <ul class="tree" aria-label="Prerequisite tree">
      <Node node={node} done={record} home={home} />
    </ul>
  );
}

function Node({ node, done, home }: { node: RequirementNode; done: Map<string, DoneCourse>; home: string }) {
  switch (node.type) {
    case 'all':
    case 'any': {
      const label = node.type === 'all' ? 'All of' : node.count && node.count > 1 ? `${node.count} of` : 'One of';
      return (
        <li>
          <span class="node">{label}</span>
          <ul>
            {node.children.map((child, index) => (
              <Node key={index} node={child} done={done} home={home} />
            ))}
          </ul>
        </li>
      );
    }
    case 'course': {
      const mark = markOf(node, done);
      const institution = node.institution ?? home;
      const extras = [node.minGrade && `min. ${node.minGrade}`, node.concurrent && 'may be concurrent', node.orEquivalent && 'or equivalent'].filter(Boolean);
      return (
        <li>
          <span class={mark.tone} aria-hidden="true">
            {mark.symbol}{' '}
          </span>
          <a href={coursePath(institution, node.code)}>
            {institution !== home ? `${institution.toUpperCase()} ` : ''}
            {node.code}
          </a>
          {extras.length > 0 && <span class="muted"> ({extras.join(', ')})</span>}
          {/* Done or not is the mark's to show; a grade still to confirm or too low is said aloud. */}
          <span class={mark.tone === 'ok' || !mark.tone ? 'visually-hidden' : `tree-state ${mark.tone}`}>{mark.tone === 'ok' || !mark.tone ? `, ${mark.said}` : ` · ${mark.said}`}</span>
        </li>
      );
    }
    case 'condition':
      return <li class="muted">Condition: {node.text}</li>;
    default:
      return <li class="warn">Not parsed: {node.text}</li>;
  }
}
