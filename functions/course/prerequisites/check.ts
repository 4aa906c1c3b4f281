import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { isFailingGrade, meetsGrade, type GradeCheck } from './grades.js';
import { anyOf } from './nodes.js';
import type { RequirementNode } from './tree.js';

/**
 * Evaluates a prerequisite tree against a student's record. Three-valued: a requirement we cannot
 * verify (units, GPA, permission, unparsed text, a grade that was not given) makes the answer
 * "unknown" rather than a guess, and every conclusion is explained.
 */

export interface CompletedCourse {
  code: string;
  grade?: string;
}

export interface CheckOptions {
  /** Courses in progress; they satisfy only course nodes marked `concurrent`. */
  concurrent?: string[];
}

export interface CheckResult {
  satisfied: boolean | 'unknown';
  /** The smallest unmet parts of the tree: single courses, or a choice ("one of …") with what is left of it. */
  missing: RequirementNode[];
  /** Non-course requirements we cannot verify; they make the result "unknown" when all else is met. */
  unmetConditions: string[];
  explanation: string[];
}

interface Evaluation {
  status: GradeCheck;
  /** What is still unmet (undefined when satisfied). */
  residual?: RequirementNode;
  missing: RequirementNode[];
  conditions: string[];
}

interface Context {
  completed: Map<string, CompletedCourse>;
  concurrent: Set<string>;
  lines: string[];
}

const normalize = (code: string) => normalizeCourseCode(code) ?? code.trim().toUpperCase();

export function checkPrerequisites(tree: RequirementNode, completed: CompletedCourse[], options: CheckOptions = {}): CheckResult {
  const ctx: Context = {
    completed: new Map(completed.map((course) => [normalize(course.code), course])),
    concurrent: new Set((options.concurrent ?? []).map(normalize)),
    lines: [],
  };
  const result = evaluate(tree, ctx);
  const conditions = [...new Set(result.conditions)];
  const summary =
    result.status === 'yes'
      ? 'Satisfied.'
      : result.status === 'no'
        ? `Not satisfied: still needs ${result.missing.map(describe).join('; ')}.`
        : `Cannot be confirmed: everything checkable is met, but ${conditions.length ? `these cannot be verified: ${conditions.join('; ')}` : 'a grade could not be compared'}.`;
  return {
    satisfied: result.status === 'yes' ? true : result.status === 'no' ? false : 'unknown',
    missing: result.missing,
    unmetConditions: conditions,
    explanation: [summary, ...ctx.lines],
  };
}

function evaluate(node: RequirementNode, ctx: Context): Evaluation {
  switch (node.type) {
    case 'course':
      return evaluateCourse(node, ctx);
    case 'condition':
      ctx.lines.push(`Cannot verify: ${node.text}${node.minGrade ? ` (minimum ${node.minGrade})` : ''}.`);
      return { status: 'unknown', residual: node, missing: [], conditions: [node.text] };
    case 'unparsed':
      ctx.lines.push(`Could not interpret this part of the requirement: "${node.text}".`);
      return { status: 'unknown', residual: node, missing: [], conditions: [`(unparsed) ${node.text}`] };
    case 'all': {
      const children = node.children.map((child) => evaluate(child, ctx));
      const status = children.some((c) => c.status === 'no') ? 'no' : children.some((c) => c.status === 'unknown') ? 'unknown' : 'yes';
      const open = children.filter((c) => c.status !== 'yes');
      return {
        status,
        residual: status === 'yes' ? undefined : { type: 'all', children: open.map((c) => c.residual!) },
        missing: children.filter((c) => c.status === 'no').flatMap((c) => c.missing),
        conditions: open.flatMap((c) => c.conditions),
      };
    }
    case 'any': {
      const needed = node.count ?? 1;
      const children = node.children.map((child) => evaluate(child, ctx));
      const met = children.filter((c) => c.status === 'yes').length;
      const maybe = children.filter((c) => c.status === 'unknown').length;
      if (needed > 1) ctx.lines.push(`${needed} of ${node.children.length} alternatives are needed; ${met} met${maybe ? `, ${maybe} unverifiable` : ''}.`);
      if (met >= needed) return { status: 'yes', missing: [], conditions: [] };
      const open = children.filter((c) => c.status !== 'yes');
      const residual = anyOf(open.map((c) => c.residual!), needed - met);
      const status: GradeCheck = met + maybe >= needed ? 'unknown' : 'no';
      const single = open.length === 1 && needed - met === 1 ? open[0]! : undefined;
      const missing = status === 'no' ? (single ? single.missing : [residual]) : [];
      return { status, residual, missing, conditions: open.flatMap((c) => c.conditions) };
    }
  }
}

function evaluateCourse(node: RequirementNode & { type: 'course' }, ctx: Context): Evaluation {
  const no = (line: string): Evaluation => {
    ctx.lines.push(line);
    return { status: 'no', residual: node, missing: [node], conditions: [] };
  };
  const record = ctx.completed.get(node.code);
  const needs = node.minGrade ? ` with ${node.minGrade} or better` : '';
  if (record) {
    if (isFailingGrade(record.grade)) return no(`${node.code}: completed with ${record.grade}, which does not count as a pass.`);
    if (!node.minGrade) {
      ctx.lines.push(`${node.code}: completed.`);
      return { status: 'yes', missing: [], conditions: [] };
    }
    if (!record.grade) {
      ctx.lines.push(`${node.code}: completed, but no grade was given and at least ${node.minGrade} is required, so this is unknown.`);
      return { status: 'unknown', residual: node, missing: [], conditions: [] };
    }
    const { result, reason } = meetsGrade(record.grade, node.minGrade);
    if (result === 'no') return no(`${node.code}: ${reason}.`);
    ctx.lines.push(`${node.code}: ${reason}${result === 'unknown' ? ' (unknown)' : ''}.`);
    return result === 'yes' ? { status: 'yes', missing: [], conditions: [] } : { status: 'unknown', residual: node, missing: [], conditions: [] };
  }
  if (ctx.concurrent.has(node.code)) {
    if (!node.concurrent) return no(`${node.code}: in progress, but it must be completed beforehand${needs}.`);
    ctx.lines.push(`${node.code}: in progress, which is allowed (may be taken concurrently).`);
    return { status: 'yes', missing: [], conditions: [] };
  }
  return no(`${node.code}: not completed (needed${needs}${node.orEquivalent ? '; an equivalent course is also accepted' : ''}).`);
}

/** Short human description of a requirement, for the summary line. */
function describe(node: RequirementNode): string {
  switch (node.type) {
    case 'course':
      return `${node.code}${node.minGrade ? ` (${node.minGrade} or better)` : ''}`;
    case 'condition':
    case 'unparsed':
      return node.text;
    case 'all':
      return `all of (${node.children.map(describe).join(', ')})`;
    case 'any': {
      const count = node.count ?? 1;
      const word = ['one', 'two', 'three', 'four'][count - 1] ?? String(count);
      return `${word} of (${node.children.map(describe).join(', ')})`;
    }
  }
}
