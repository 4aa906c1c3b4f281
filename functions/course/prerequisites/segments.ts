import { allOf, anyOf } from './nodes.js';
import type { RequirementNode } from './tree.js';

/**
 * Combines the ";"-separated segments of a sentence. A bare ";" is AND ("ECON 201 with C-; 45
 * units"), "; or" binds tighter than "; and" ("A; or B; C" is "(A or B) and C"), with two catalog
 * conventions on top:
 *  - "A; B; C; or D" is a list of alternatives when the last item is not a permission or every
 *    item stands alone: its own grade ('A minimum "B" grade in Physics 12; …') or no course at all.
 *  - A final "; or permission of …" is the alternative to everything before it.
 */

export type SegmentSep = 'and' | 'or' | ';';

const isPermission = (node: RequirementNode | undefined) => node?.type === 'condition' && node.category === 'permission';

export function combineSegments(parts: RequirementNode[], seps: SegmentSep[], graded: boolean[]): RequirementNode {
  if (parts.length === 0) return allOf([]);
  const last = parts[parts.length - 1]!;
  // A bare ";" followed later by "; or" (and no "; and" anywhere) separates alternatives.
  const alternatives = !seps.includes('and') && (!isPermission(last) || graded.slice(0, -1).every(Boolean));
  const resolved = seps.map((sep, i) => (sep !== ';' ? sep : alternatives && seps.slice(i + 1).includes('or') ? 'or' : 'and'));
  if (resolved[resolved.length - 1] === 'or' && isPermission(last) && resolved.slice(0, -1).every((sep) => sep === 'and')) {
    return anyOf([precedence(parts.slice(0, -1), resolved.slice(0, -1)), last]);
  }
  // "One of …; and one of …, …; or permission of the department": the last list swallowed the
  // permission that is really the alternative to the whole requirement.
  if (parts.length >= 2 && resolved.every((sep) => sep === 'and') && last.type === 'any' && !last.count && isPermission(last.children.at(-1))) {
    const rest = anyOf(last.children.slice(0, -1));
    return anyOf([allOf([...parts.slice(0, -1), rest]), last.children.at(-1)!]);
  }
  return precedence(parts, resolved);
}

function precedence(parts: RequirementNode[], seps: ('and' | 'or')[]): RequirementNode {
  const groups: RequirementNode[][] = [[parts[0]!]];
  seps.forEach((sep, i) => (sep === 'or' ? groups[groups.length - 1]!.push(parts[i + 1]!) : groups.push([parts[i + 1]!])));
  return allOf(groups.map((group) => anyOf(group)));
}
