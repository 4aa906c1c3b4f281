import { checkPrerequisites } from '../../../functions/course/prerequisites/check.js';
import type { RequirementNode } from '../../../functions/catalog/requirement-tree.js';

export type { RequirementNode };

export type NodeStatus = 'met' | 'unmet' | 'unknown';

export interface CompletedInput {
  course: string;
  grade?: string;
}

const codeOf = (course: string) => (course.includes(':') ? course.split(':')[1]! : course);

/**
 * Whether one part of a prerequisite tree is met by the completed courses given, decided by the same
 * check tn_course_prereqs runs (so a node reads exactly as the tool's answer): letter and percentage
 * grades, failing grades, courses in progress where concurrency is allowed, "unknown" where a grade or
 * a condition cannot be verified.
 */
export function statusOf(node: RequirementNode, completed: CompletedInput[], inProgress: string[] = []): NodeStatus {
  const { satisfied } = checkPrerequisites(
    node,
    completed.map((c) => ({ code: codeOf(c.course), ...(c.grade ? { grade: c.grade } : {}) })),
    { concurrent: inProgress.map(codeOf) },
  );
  return satisfied === true ? 'met' : satisfied === false ? 'unmet' : 'unknown';
}
