import { allOf, anyOf } from './nodes.js';
import type { RequirementNode } from './tree.js';

/**
 * Turns a flat run of requirements and connectors into a tree. Catalog prose uses commas for both
 * AND and OR, so a comma takes its meaning from the list it belongs to:
 *  - Oxford lists ("A, B, C or D, and E"; "1171, 1173 and 1183, or 1175") are closed by ", and" /
 *    ", or"; their commas take that type and plain connectors inside an item bind tighter.
 *  - Other commas follow the connector that ends their list ("MATH 150, 151 or 154" is OR), except
 *    after an "or" item ("CMPT 413 or 713, CMPT 726 or 728" is AND of two choices).
 *  - Plain "or" binds tighter than plain "and" ("STAT 830 and STAT 850 or permission").
 */

export type Sep = ',' | 'and' | 'or' | ',and' | ',or';
export type ListMode = 'any' | 'all';

export function buildSequence(units: RequirementNode[], seps: Sep[], mode?: ListMode, count?: number): RequirementNode {
  if (mode === 'any') {
    // Inside "one of", every comma/or separates alternatives; an "and" joins one alternative's parts.
    const items: RequirementNode[][] = [[units[0]!]];
    seps.forEach((sep, i) => (sep === 'and' ? items[items.length - 1]!.push(units[i + 1]!) : items.push([units[i + 1]!])));
    return anyOf(items.map(allOf), count);
  }
  if (mode === 'all') {
    return precedence(units, seps.map((sep) => (sep === 'or' || sep === ',or' ? 'or' : 'and')));
  }
  return buildGeneral(units, seps);
}

function buildGeneral(units: RequirementNode[], seps: Sep[]): RequirementNode {
  const u = [...units];
  const s = [...seps];
  for (let m = 0; m < s.length; m += 1) {
    const marker = s[m];
    if (marker !== ',and' && marker !== ',or') continue;
    const loose = marker === ',and' ? 'and' : 'or';
    const { left, boundaries } = leftEnd(s, m, loose);
    // "PSYC 820, or PSYC 820A and PSYC 820B": a lone ", or" separates clauses, not list items.
    let right = rightEnd(s, m, boundaries.size === 0 ? 'and' : loose);
    boundaries.add(m);
    // A list that trails off in bare commas ("…, or 1175, a score of 65 on …") keeps its type.
    if (right < s.length && s.slice(right).every((sep) => sep === ',')) {
      for (let i = right; i < s.length; i += 1) boundaries.add(i);
      right = s.length;
    }
    const items: RequirementNode[] = [];
    let itemStart = left;
    for (let i = left; i <= right; i += 1) {
      if (i === right || boundaries.has(i)) {
        items.push(buildGeneral(u.slice(itemStart, i + 1), s.slice(itemStart, i)));
        itemStart = i + 1;
      }
    }
    const node = loose === 'and' ? allOf(items) : anyOf(items);
    u.splice(left, right - left + 1, node);
    s.splice(left, right - left);
    m = left - 1;
  }
  return precedence(u, resolveCommas(s));
}

/** The last unit of an Oxford list: the unit after the marker, plus a trailing "b, c or d" choice. */
function rightEnd(s: Sep[], m: number, loose: 'and' | 'or'): number {
  let r = m + 1;
  while (r < s.length && (s[r] === 'or' || (loose === 'and' && s[r] === 'and'))) r += 1;
  if (loose === 'and') {
    let scanEnd = r;
    while (scanEnd < s.length && (s[scanEnd] === ',' || s[scanEnd] === 'or' || s[scanEnd] === ',or')) scanEnd += 1;
    if (scanEnd > r && s[scanEnd - 1] !== ',') r = scanEnd;
  }
  return r;
}

/** The first unit of an Oxford list and the commas that separate its items. */
function leftEnd(s: Sep[], m: number, loose: 'and' | 'or'): { left: number; boundaries: Set<number> } {
  const boundaries = new Set<number>();
  let left = m;
  while (left > 0) {
    const sep = s[left - 1]!;
    if (sep === ',') boundaries.add(left - 1);
    else if (sep === ',and' || sep === ',or') break;
    // An "and" inside an OR list belongs to an item only when the list goes on further left.
    else if (sep === 'and' && loose === 'or' && !s.slice(0, left - 1).includes(',')) break;
    left -= 1;
  }
  return { left, boundaries };
}

function resolveCommas(s: Sep[]): ('and' | 'or')[] {
  return s.map((sep, i) => {
    if (sep === 'and' || sep === ',and') return 'and';
    if (sep === 'or' || sep === ',or') return 'or';
    let j = i - 1;
    while (j >= 0 && s[j] !== ',') {
      if (s[j] === 'or') return 'and';
      j -= 1;
    }
    const following = s.slice(i + 1).find((next) => next !== ',');
    return following === 'or' || following === ',or' ? 'or' : 'and';
  });
}

function precedence(units: RequirementNode[], seps: ('and' | 'or')[]): RequirementNode {
  const groups: RequirementNode[][] = [[units[0]!]];
  seps.forEach((sep, i) => (sep === 'or' ? groups[groups.length - 1]!.push(units[i + 1]!) : groups.push([units[i + 1]!])));
  return allOf(groups.map((group) => anyOf(group)));
}
