/** The prerequisite tree as a nested list: AND/OR groups with each course marked done or not. */

export type RequirementNode =
  | { type: 'all'; children: RequirementNode[] }
  | { type: 'any'; children: RequirementNode[]; count?: number }
  | { type: 'course'; code: string; institution?: string; minGrade?: string; concurrent?: boolean; orEquivalent?: boolean }
  | { type: 'condition'; text: string }
  | { type: 'unparsed'; text: string };

const normalise = (code: string) => code.replace(/^[a-z]+:/i, '').replace(/\s+/g, '').toUpperCase();

export function PrereqTree({ node, done, home }: { node: RequirementNode; done: string[]; home: string }) {
  const doneSet = new Set(done.map(normalise));
  if (node.type === 'all' && node.children.length === 0) return <p>No prerequisites.</p>;
  return (
    <ul class="tree" aria-label="Prerequisite tree">
      <Node node={node} done={doneSet} home={home} />
    </ul>
  );
}

function Node({ node, done, home }: { node: RequirementNode; done: Set<string>; home: string }) {
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
      const has = done.has(normalise(node.code));
      const extras = [node.minGrade && `min. ${node.minGrade}`, node.concurrent && 'may be concurrent', node.orEquivalent && 'or equivalent'].filter(Boolean);
      return (
        <li>
          <span class={has ? 'ok' : undefined}>
            {has ? '✓ ' : '○ '}
            {node.institution && node.institution !== home ? `${node.institution.toUpperCase()} ` : ''}
            {node.code}
          </span>
          {extras.length > 0 && <span class="muted"> ({extras.join(', ')})</span>}
          <span class="visually-hidden">{has ? ', done' : ', not done'}</span>
        </li>
      );
    }
    case 'condition':
      return <li class="muted">Condition: {node.text}</li>;
    default:
      return <li class="warn">Not parsed: {node.text}</li>;
  }
}
