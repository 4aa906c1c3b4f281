import type { ConditionNode, CourseNode, RequirementNode } from './tree.js';

/** Builders and tree rewrites shared by the grammar, the sentence layer and the checker. */

export function allOf(children: RequirementNode[]): RequirementNode {
  return simplify({ type: 'all', children });
}

export function anyOf(children: RequirementNode[], count?: number): RequirementNode {
  return simplify(count && count > 1 ? { type: 'any', children, count } : { type: 'any', children });
}

/**
 * Canonical shape: nested groups of the same kind are merged ("A or (B or C)" is one choice),
 * single-child groups disappear and empty groups vanish from their parents.
 */
function simplify(node: RequirementNode): RequirementNode {
  if (node.type !== 'all' && node.type !== 'any') return node;
  const counted = node.type === 'any' && (node.count ?? 1) > 1;
  const children: RequirementNode[] = [];
  for (const child of node.children.map(simplify)) {
    if ((child.type === 'all' || child.type === 'any') && child.children.length === 0) continue;
    if (child.type === 'all' && node.type === 'all') children.push(...child.children);
    else if (child.type === 'any' && node.type === 'any' && !counted && (child.count ?? 1) === 1) children.push(...child.children);
    else children.push(child);
  }
  if (children.length === 1 && !counted) return children[0]!;
  if (node.type === 'any' && node.count !== undefined && node.count > 1) return { type: 'any', children, count: node.count };
  return { type: node.type, children };
}

export function courseNodes(node: RequirementNode): CourseNode[] {
  if (node.type === 'course') return [node];
  if (node.type === 'all' || node.type === 'any') return node.children.flatMap(courseNodes);
  return [];
}

function conditionNodes(node: RequirementNode): ConditionNode[] {
  if (node.type === 'condition') return [node];
  if (node.type === 'all' || node.type === 'any') return node.children.flatMap(conditionNodes);
  return [];
}

/** Conditions whose grade is meaningful: high-school courses, credit counts and "any X course". */
const GRADED_CONDITIONS = new Set(['high-school', 'credits', 'other', undefined]);

/** A grade qualifier ("all with a minimum grade of C-") fills in grades that are not yet set. */
export function applyGrade(node: RequirementNode, grade: string): void {
  for (const course of courseNodes(node)) course.minGrade ??= grade;
  for (const condition of conditionNodes(node)) {
    if (GRADED_CONDITIONS.has(condition.category)) condition.minGrade ??= grade;
  }
}

/** Marks courses as takeable concurrently: all of them, or only those whose code is listed. */
export function markConcurrent(node: RequirementNode, codes?: Set<string>): number {
  let marked = 0;
  for (const course of courseNodes(node)) {
    if (codes && !codes.has(course.code)) continue;
    course.concurrent = true;
    marked += 1;
  }
  return marked;
}

export function markEquivalent(node: RequirementNode): void {
  if (node.type === 'course' || node.type === 'condition') node.orEquivalent = true;
  else if (node.type === 'all' || node.type === 'any') node.children.forEach(markEquivalent);
}

/** Texts of every `unparsed` node, in order. */
export function unparsedTexts(node: RequirementNode): string[] {
  if (node.type === 'unparsed') return [node.text];
  if (node.type === 'all' || node.type === 'any') return node.children.flatMap(unparsedTexts);
  return [];
}

/** Replaces, bottom-up, every node for which `replace` returns a value. */
export function rewrite(node: RequirementNode, replace: (node: RequirementNode) => RequirementNode | undefined): RequirementNode {
  const inner =
    node.type === 'all' || node.type === 'any' ? { ...node, children: node.children.map((child) => rewrite(child, replace)) } : node;
  return replace(inner) ?? inner;
}

export function cloneNode<T extends RequirementNode>(node: T): T {
  return structuredClone(node);
}
